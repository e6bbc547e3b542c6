//! Writes a synthetic blog full of images, for scripts/bench-images: a
//! project folder (`books/`) with one book of `POSTS` posts in English and
//! Portuguese, each post showing one image beside it: JPEG photographs,
//! PNG screenshots and WebP pictures, 800 to 4,000 pixels on the long side.
//! Deterministic: the same arguments write the same bytes.
//!
//!     cargo run --release -p stoa-image --example image-blog -- DIR [POSTS] [--huge]
//!
//! `--huge`: one post with one 6,000 × 4,000 JPEG photograph instead.

use image::{ImageFormat, Rgb, RgbImage};
use std::io::Cursor;
use std::path::Path;

/// A tiny deterministic generator (a linear congruential one).
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> u32 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (self.0 >> 33) as u32
    }

    fn below(&mut self, n: u32) -> u32 {
        self.next() % n.max(1)
    }
}

/// A photograph-like picture: soft discs of colour over a gradient, with
/// grain, so that it compresses as a photograph does.
fn photo(rng: &mut Lcg, width: u32, height: u32) -> RgbImage {
    let mut img = RgbImage::from_fn(width, height, |x, y| {
        Rgb([
            (x * 200 / width) as u8 + 30,
            (y * 180 / height) as u8 + 40,
            120,
        ])
    });
    for _ in 0..24 {
        let (cx, cy) = (rng.below(width) as i64, rng.below(height) as i64);
        let r = (rng.below(width / 4) + width / 20) as i64;
        let colour = [
            rng.below(256) as u8,
            rng.below(256) as u8,
            rng.below(256) as u8,
        ];
        let (x0, x1) = ((cx - r).max(0) as u32, ((cx + r) as u32).min(width));
        let (y0, y1) = ((cy - r).max(0) as u32, ((cy + r) as u32).min(height));
        for y in y0..y1 {
            for x in x0..x1 {
                let (dx, dy) = (x as i64 - cx, y as i64 - cy);
                if dx * dx + dy * dy <= r * r {
                    let p = img.get_pixel_mut(x, y);
                    for (channel, tint) in p.0.iter_mut().zip(colour) {
                        *channel = ((u16::from(*channel) + u16::from(tint)) / 2) as u8;
                    }
                }
            }
        }
    }
    for p in img.pixels_mut() {
        let grain = (rng.below(9) as i16) - 4;
        for c in &mut p.0 {
            *c = (i16::from(*c) + grain).clamp(0, 255) as u8;
        }
    }
    img
}

/// A screenshot-like picture: flat bars of a few colours.
fn screenshot(rng: &mut Lcg, width: u32, height: u32) -> RgbImage {
    let palette = [
        [255, 255, 255],
        [30, 60, 200],
        [225, 225, 225],
        [20, 20, 20],
    ];
    let bar = 24 + rng.below(24);
    RgbImage::from_fn(width, height, |x, y| {
        let row = y / bar;
        let c = if x < width / 6 { 3 } else { (row % 3) as usize };
        Rgb(palette[c])
    })
}

fn encode(img: &RgbImage, format: ImageFormat) -> Vec<u8> {
    let mut out = Vec::new();
    image::DynamicImage::ImageRgb8(img.clone())
        .write_to(&mut Cursor::new(&mut out), format)
        .expect("encodes");
    out
}

fn write(path: &Path, bytes: &[u8]) {
    std::fs::create_dir_all(path.parent().expect("a parent")).expect("a folder");
    std::fs::write(path, bytes).expect("written");
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let dir = Path::new(args.first().map(String::as_str).unwrap_or("image-blog"));
    let huge = args.iter().any(|a| a == "--huge");
    let posts: u32 = if huge {
        1
    } else {
        args.get(1).and_then(|n| n.parse().ok()).unwrap_or(1000)
    };
    let books = dir.join("books");
    let mut rng = Lcg(51);
    let mut slugs = Vec::new();
    let mut source_bytes = 0usize;
    for n in 1..=posts {
        let slug = format!("post-{n:04}");
        let folder = books.join("posts").join(&slug);
        let (name, bytes) = if huge {
            (
                "photo.jpg",
                encode(&photo(&mut rng, 6000, 4000), ImageFormat::Jpeg),
            )
        } else {
            let long = 800 + rng.below(3201);
            let short = long * (55 + rng.below(25)) / 100;
            let (w, h) = if rng.below(4) == 0 {
                (short, long)
            } else {
                (long, short)
            };
            match n % 3 {
                0 => (
                    "photo.jpg",
                    encode(&photo(&mut rng, w, h), ImageFormat::Jpeg),
                ),
                1 => (
                    "screen.png",
                    encode(&screenshot(&mut rng, w, h), ImageFormat::Png),
                ),
                _ => (
                    "picture.webp",
                    encode(&photo(&mut rng, w / 2, h / 2), ImageFormat::WebP),
                ),
            }
        };
        source_bytes += bytes.len();
        write(&folder.join(name), &bytes);
        for (lang, words) in [("en", "A picture"), ("pt-BR", "Uma imagem")] {
            let text = format!(
                "+++\ntitle = \"{words} {n}\"\ndate = 2024-01-{:02}\n+++\n\n{words}, \
                 as a post of a real blog shows it:\n\n![{words} {n}]({name})\n\n\
                 And a paragraph after it, so that the page has text too.\n",
                1 + n % 28
            );
            write(&folder.join(format!("{lang}.md")), text.as_bytes());
        }
        slugs.push(slug);
    }
    let list: Vec<String> = slugs.iter().map(|s| format!("\"{s}\"")).collect();
    let toml = format!(
        "author = \"Bench Mark\"\nlanguages = [\"en\", \"pt-BR\"]\n\
         identifier = \"urn:uuid:51515151-5151-4151-8151-515151515151\"\n\
         date = 2024-01-01\nposts = [{}]\n\n[title]\nen = \"Pictures\"\npt-BR = \"Imagens\"\n",
        list.join(", ")
    );
    write(&books.join("pictures/book.toml"), toml.as_bytes());
    println!("{posts} posts, {source_bytes} bytes of images");
}
