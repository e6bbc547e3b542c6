use super::*;
use image::{ImageFormat, Rgb, RgbImage, Rgba, RgbaImage};

/// A photograph-like image (a smooth gradient with noise: many colours).
fn photo(width: u32, height: u32) -> RgbImage {
    RgbImage::from_fn(width, height, |x, y| {
        let n = (x.wrapping_mul(2_654_435_761) ^ y.wrapping_mul(40_503)) % 23;
        Rgb([
            (x * 255 / width.max(1)) as u8,
            (y * 255 / height.max(1)) as u8,
            (n * 11) as u8,
        ])
    })
}

/// A screenshot-like image: few flat colours.
fn flat(width: u32, height: u32) -> RgbaImage {
    RgbaImage::from_fn(width, height, |x, y| match ((x / 40) + (y / 30)) % 3 {
        0 => Rgba([255, 255, 255, 255]),
        1 => Rgba([20, 40, 200, 255]),
        _ => Rgba([0, 0, 0, 0]),
    })
}

fn encoded(image: &image::DynamicImage, format: ImageFormat) -> Vec<u8> {
    let mut out = Vec::new();
    image.write_to(&mut Cursor::new(&mut out), format).unwrap();
    out
}

fn jpeg(width: u32, height: u32) -> Vec<u8> {
    encoded(&photo(width, height).into(), ImageFormat::Jpeg)
}

const EPUB: Target = Target {
    max_side: Some(2560),
    max_pixels: Some(4_000_000),
    placement: None,
    keep_webp: false,
    jpeg_quality: 85,
    srcset_side: None,
};

fn pdf(ppi: f64) -> Target {
    Target {
        max_side: None,
        max_pixels: None,
        placement: Some(Placement {
            measure_in: 4.5,
            ppi,
        }),
        keep_webp: false,
        jpeg_quality: 85,
        srcset_side: None,
    }
}

#[test]
fn the_header_says_kind_size_and_transparency() {
    let p = probe(&jpeg(300, 200)).unwrap();
    assert_eq!(
        (p.kind, p.width, p.height, p.alpha),
        (Kind::Jpeg, 300, 200, false)
    );
    let p = probe(&encoded(&flat(50, 40).into(), ImageFormat::Png)).unwrap();
    assert_eq!(
        (p.kind, p.width, p.height, p.alpha),
        (Kind::Png, 50, 40, true)
    );
    let webp = encoded(&flat(50, 40).into(), ImageFormat::WebP);
    let p = probe(&webp).unwrap();
    assert_eq!(
        (p.kind, p.lossy),
        (Kind::WebP, false),
        "image writes lossless WebP"
    );
    assert_eq!(
        probe(b"<svg xmlns=\"http://www.w3.org/2000/svg\"/>")
            .unwrap()
            .kind,
        Kind::Svg
    );
    assert_eq!(probe(b"hello"), None);
}

#[test]
fn a_lossy_webp_is_told_from_a_lossless_one() {
    let chunk = |name: &[u8; 4], body: &[u8]| {
        let mut c = name.to_vec();
        c.extend((body.len() as u32).to_le_bytes());
        c.extend(body);
        if body.len() % 2 == 1 {
            c.push(0);
        }
        c
    };
    let riff = |chunks: Vec<u8>| [b"RIFF".to_vec(), vec![0; 4], b"WEBP".to_vec(), chunks].concat();
    assert!(webp_is_lossy(&riff(chunk(b"VP8 ", &[1, 2, 3]))));
    assert!(!webp_is_lossy(&riff(chunk(b"VP8L", &[1, 2]))));
    // An extended file: its header chunk, an odd-sized chunk, then the image.
    let extended = [
        chunk(b"VP8X", &[0x10; 10]),
        chunk(b"ICCP", &[7; 3]),
        chunk(b"VP8 ", &[1]),
    ]
    .concat();
    assert!(webp_is_lossy(&riff(extended)));
}

#[test]
fn an_image_within_every_limit_is_kept() {
    let p = probe(&jpeg(800, 600)).unwrap();
    assert_eq!(plan(&p, &EPUB), Plan::Keep);
    // 800 px at 72 dpi is 11 in, shown at the 4.5 in measure: 178 ppi.
    assert_eq!(plan(&p, &pdf(200.0)), Plan::Keep);
}

#[test]
fn an_image_is_scaled_to_what_its_output_shows() {
    let p = probe(&jpeg(6000, 4000)).unwrap();
    // EPUB: 4 Mpx at most (Apple's limit), the long side 2560.
    let Plan::Make {
        width,
        height,
        kind,
        dpi,
    } = plan(&p, &EPUB)
    else {
        panic!("scaled")
    };
    assert_eq!((width, height, kind, dpi), (2449, 1633, Kind::Jpeg, None));
    assert!(u64::from(width) * u64::from(height) <= 4_000_000);
    // PDF: the measure (4.5 in) at 300 ppi, no density (its natural size
    // stays wider than the measure).
    assert_eq!(
        plan(&p, &pdf(300.0)),
        Plan::Make {
            width: 1350,
            height: 900,
            kind: Kind::Jpeg,
            dpi: None
        }
    );
}

#[test]
fn a_small_dense_image_keeps_its_natural_size() {
    // 1200 px at 600 dpi: 2 in wide, placed at 2 in, 600 ppi.
    let mut p = probe(&jpeg(1200, 900)).unwrap();
    p.dpi = Some(600.0);
    assert_eq!(
        plan(&p, &pdf(300.0)),
        Plan::Make {
            width: 600,
            height: 450,
            kind: Kind::Jpeg,
            dpi: Some(300)
        }
    );
}

#[test]
fn webp_is_given_as_png_or_jpeg_unless_kept() {
    let webp = encoded(&flat(64, 48).into(), ImageFormat::WebP);
    let p = probe(&webp).unwrap();
    let Plan::Make { kind, width, .. } = plan(&p, &EPUB) else {
        panic!("converted")
    };
    assert_eq!((kind, width), (Kind::Png, 64));
    let keep = Target {
        keep_webp: true,
        ..EPUB
    };
    assert_eq!(plan(&p, &keep), Plan::Keep);
    let lossy_photo = Probe {
        lossy: true,
        alpha: false,
        ..p.clone()
    };
    assert_eq!(delivered(&lossy_photo, false), Kind::Jpeg);
    let made = make(&webp, &plan(&p, &EPUB), 85).unwrap().unwrap();
    assert_eq!(made.kind, Kind::Png);
    assert_eq!(
        image::load_from_memory(&made.bytes).unwrap().to_rgba8(),
        flat(64, 48)
    );
}

#[test]
fn a_made_image_has_the_planned_size_kind_and_density() {
    let source = jpeg(1200, 900);
    let mut p = probe(&source).unwrap();
    p.dpi = Some(600.0);
    let planned = plan(&p, &pdf(300.0));
    let made = make(&source, &planned, 85).unwrap().unwrap();
    let back = probe(&made.bytes).unwrap();
    assert_eq!((back.kind, back.width, back.height), (Kind::Jpeg, 600, 450));
    assert_eq!(
        back.dpi,
        Some(300.0),
        "the density keeps its natural size: 2 in"
    );
    // The same input makes the same bytes.
    assert_eq!(make(&source, &planned, 85).unwrap().unwrap(), made);
    assert_eq!(make(&source, &Plan::Keep, 85).unwrap(), None);
}

#[test]
fn a_flat_image_stays_lossless_in_a_palette() {
    let shot = flat(1600, 1200);
    let source = encoded(&shot.clone().into(), ImageFormat::Png);
    let p = probe(&source).unwrap();
    let planned = Plan::Make {
        width: 1600,
        height: 1200,
        kind: Kind::Png,
        dpi: Some(150),
    };
    let made = make(&source, &planned, 85).unwrap().unwrap();
    assert_eq!(
        image::load_from_memory(&made.bytes).unwrap().to_rgba8(),
        shot
    );
    assert!(
        made.bytes.len() < source.len(),
        "{} ≥ {}",
        made.bytes.len(),
        source.len()
    );
    assert_eq!(probe(&made.bytes).unwrap().dpi.map(f64::round), Some(150.0));
    assert!(p.alpha);
}

#[test]
fn a_raster_image_is_wrapped_in_an_svg_of_its_natural_size() {
    let source = jpeg(300, 200);
    let p = probe(&source).unwrap();
    let svg = String::from_utf8(in_svg(&source, &p).unwrap()).unwrap();
    // 300 px at Typst's 72 ppi: 300 pt.
    assert!(
        svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""),
        "{svg:.200}"
    );
    assert!(
        svg.contains("width=\"300pt\" height=\"200pt\" viewBox=\"0 0 300 200\""),
        "{svg:.300}"
    );
    assert!(
        svg.contains("xlink:href=\"data:image/jpeg;base64,/9j/"),
        "{svg:.400}"
    );
    assert!(!svg.contains("transform"), "{svg:.400}");
    // At 600 ppi, and turned a quarter by its EXIF: 36 × 24 pt shown as
    // 24 × 36, the stored pixels turned into the upright box.
    let turned = Probe {
        dpi: Some(600.0),
        orientation: 6,
        ..p.clone()
    };
    let svg = String::from_utf8(in_svg(&source, &turned).unwrap()).unwrap();
    assert!(
        svg.contains("width=\"24pt\" height=\"36pt\" viewBox=\"0 0 200 300\""),
        "{svg:.300}"
    );
    assert!(
        svg.contains("transform=\"matrix(0 1 -1 0 200 0)\""),
        "{svg:.400}"
    );
    // SVG, GIF and WebP are given as they are.
    let webp = encoded(&flat(8, 8).into(), ImageFormat::WebP);
    assert_eq!(in_svg(&webp, &probe(&webp).unwrap()), None);
}
