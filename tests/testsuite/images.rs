//! Images made for each output (issue 51), on tests/fixtures/v1/images: a
//! camera's 6-megapixel JPEG, a lossy and a lossless WebP, a wide
//! screenshot and a small JPEG. In the reader's PDF each image keeps at
//! most 200 ppi where it is placed, in print 300; the EPUB and the web
//! edition hold JPEG and PNG of at most 4 megapixels; an image already
//! right passes untouched; a second build decodes nothing again.

use crate::prelude::*;
use std::path::{Path, PathBuf};
use stoa_render::stoa_image::{Kind, probe};

/// One line of `pdfimages -list`: width, height and the density (x) of
/// each image (alpha masks left out).
fn pdf_images(pdf: &Path) -> Vec<(u32, u32, f64)> {
    tool("pdfimages", &["-list"], pdf)
        .lines()
        .skip(2)
        .filter(|l| l.split_whitespace().nth(2) == Some("image"))
        .map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            (
                f[3].parse().unwrap(),
                f[4].parse().unwrap(),
                f[12].parse().unwrap(),
            )
        })
        .collect()
}

fn source(name: &str) -> Vec<u8> {
    std::fs::read(fixture("images/books/posts/pictures").join(name)).unwrap()
}

#[test]
fn the_readers_pdf_keeps_200_ppi_where_each_image_is_placed() {
    let built = build_fixture("images/books", &["--book", "photos", "-f", "pdf"]);
    let images = pdf_images(&built.dist.join("photos/photos-en.pdf"));
    assert_eq!(images.len(), 5, "{images:?}");
    // The camera's photograph, the two WebP and the screenshot fill the
    // measure (4.1 in) at 200 ppi, never more ...
    for &(width, _, ppi) in &images[..4] {
        assert!((199.0..=201.0).contains(&ppi), "{images:?}");
        assert!(width < 900, "{images:?}");
    }
    // ... the small picture (480 px) has fewer pixels than that: never
    // scaled up.
    assert_eq!((images[4].0, images[4].1), (480, 320), "{images:?}");
}

/// The PDF's images are written from their files after Typst laid the
/// book out with stand-ins (stoa-pdf's stand_in.rs): none of the 16 × 1
/// stand-ins is left, a JPEG within its limits is in the PDF byte for byte,
/// and a picture with transparency keeps it as a soft mask.
#[test]
fn the_pdf_holds_each_image_itself_never_its_stand_in() {
    let built = build_fixture("images/books", &["--book", "print", "-f", "pdf"]);
    for pdf in ["print/print-en.pdf", "print/print-en-print.pdf"] {
        let pdf = built.dist.join(pdf);
        let list = tool("pdfimages", &["-list"], &pdf);
        let rows: Vec<Vec<&str>> = list
            .lines()
            .skip(2)
            .map(|l| l.split_whitespace().collect())
            .collect();
        assert!(rows.iter().all(|r| (r[3], r[4]) != ("16", "1")), "{list}");
        // The logo's alpha: a soft mask of its size.
        assert!(
            rows.iter()
                .any(|r| r[2] == "smask" && (r[3], r[4]) == ("900", "600")),
            "{list}"
        );
        let out = tempfile::tempdir().unwrap();
        let prefix = out.path().join("img");
        let status = std::process::Command::new("pdfimages")
            .args(["-j".as_ref(), pdf.as_os_str(), prefix.as_os_str()])
            .status()
            .expect("pdfimages runs");
        assert!(status.success());
        let small = source("small.jpg");
        let jpegs: Vec<Vec<u8>> = std::fs::read_dir(out.path())
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "jpg"))
            .map(|p| std::fs::read(p).unwrap())
            .collect();
        assert!(
            jpegs.contains(&small),
            "small.jpg is not in {}",
            pdf.display()
        );
        let check = tool("qpdf", &["--check"], &pdf);
        assert!(
            check.contains("No syntax or stream encoding errors"),
            "{check}"
        );
    }
}

#[test]
fn print_keeps_300_ppi_and_the_preflight_still_reports_low_resolution() {
    let built = build_fixture("images/books", &["--book", "print", "-f", "pdf"]);
    let images = pdf_images(&built.dist.join("print/print-en-print.pdf"));
    assert_eq!(images.len(), 5, "{images:?}");
    for &(_, _, ppi) in [&images[0], &images[1], &images[3]] {
        assert!((299.0..=301.0).contains(&ppi), "{images:?}");
    }
    // The logo (900 px) has fewer pixels than 300 ppi asks: as it is.
    assert_eq!((images[2].0, images[2].1), (900, 600), "{images:?}");
    // The preflight judges the images the author gave: the small picture
    // and the logo are below 300 dpi, the camera's photograph is not.
    let project = kept_until_exit(project_from(&fixture("images/books")));
    let out = stoa(&project, &["check", "--print", "--book", "print"]);
    let log = output_text(&out);
    assert!(log.contains("small.jpg is placed at"), "{log}");
    assert!(log.contains("logo.webp is placed at"), "{log}");
    assert!(!log.contains("camera.jpg"), "{log}");
}

#[test]
fn the_epub_holds_jpeg_and_png_of_at_most_4_megapixels() {
    let built = build_fixture("images/books", &["--book", "photos", "-f", "epub"]);
    let epub = built.dist.join("photos/photos-en.epub");
    let failures = epubcheck(std::slice::from_ref(&epub));
    assert!(failures.is_empty(), "{failures:#?}");
    let named = |name: &str| zip_bytes(&epub, &format!("OEBPS/images/pictures/{name}"));
    // The camera's 3000 × 2000 photograph: scaled to 4 megapixels.
    let camera = probe(&named("1-camera.jpg")).unwrap();
    assert_eq!(camera.kind, Kind::Jpeg);
    assert!(
        camera.pixels() <= 4_000_000 && camera.width > 2400,
        "{camera:?}"
    );
    // WebP: a photograph becomes JPEG, a logo with transparency PNG, named
    // and typed so in the package.
    assert_eq!(probe(&named("2-web-photo.jpg")).unwrap().kind, Kind::Jpeg);
    let logo = probe(&named("3-logo.png")).unwrap();
    assert_eq!((logo.kind, logo.alpha), (Kind::Png, true));
    let opf = zip_entry(&epub, "OEBPS/content.opf");
    assert!(!opf.contains("webp"), "{opf}");
    assert!(
        opf.contains("media-type=\"image/jpeg\" id=\"id_images_pictures_2-web-photo.jpg\""),
        "{opf}"
    );
    // Right as they are: the very same bytes.
    assert_eq!(named("4-screenshot.png"), source("screenshot.png"));
    assert_eq!(named("5-small.jpg"), source("small.jpg"));
    let page = zip_entry(&epub, "OEBPS/pictures.xhtml");
    assert!(
        page.contains("src=\"images/pictures/2-web-photo.jpg\""),
        "{page}"
    );
    // An image alone in its paragraph is a figure: unindented, centred.
    assert_eq!(
        page.matches("<p class=\"figure\"><img ").count(),
        5,
        "{page}"
    );
}

#[test]
fn the_web_edition_says_each_images_size_and_offers_phones_a_smaller_copy() {
    let built = build_fixture("images/books", &["--book", "photos", "-f", "html"]);
    let web = built.dist.join("photos/en");
    let page = std::fs::read_to_string(web.join("pictures.html")).unwrap();
    // The camera's photograph: 4 megapixels, and a copy 800 px wide.
    assert!(
        page.contains(
            "<img src=\"images/pictures/1-camera.jpg\" srcset=\"images/pictures/1-camera-800w.jpg 800w, \
             images/pictures/1-camera.jpg 2449w\" sizes=\"(max-width: 42em) 100vw, 40em\""
        ),
        "{page}"
    );
    assert!(
        page.contains("width=\"2449\" height=\"1633\" loading=\"lazy\""),
        "{page}"
    );
    let small =
        probe(&std::fs::read(web.join("images/pictures/1-camera-800w.jpg")).unwrap()).unwrap();
    assert_eq!((small.kind, small.width), (Kind::Jpeg, 800));
    // The small picture (480 px) needs no copy: its size only.
    assert!(
        page.contains("<img src=\"images/pictures/5-small.jpg\" alt=\"A small field of circles\" width=\"480\" height=\"320\" loading=\"lazy\""),
        "{page}"
    );
    assert!(!web.join("images/pictures/5-small-480w.jpg").exists());
}

#[test]
fn a_book_may_keep_webp_in_its_epub() {
    let project = kept_until_exit(project_from(&fixture("images/books")));
    let toml = project.join("books/photos/book.toml");
    let text = std::fs::read_to_string(&toml).unwrap();
    std::fs::write(&toml, format!("{text}\n[images]\nepub-webp = true\n")).unwrap();
    let out = stoa(
        &project,
        &["build", "--book", "photos", "-f", "epub", "-f", "pdf"],
    );
    assert!(out.status.success(), "{}", output_text(&out));
    let epub = project.join("dist/photos/photos-en.epub");
    assert_eq!(
        zip_bytes(&epub, "OEBPS/images/pictures/2-web-photo.webp"),
        source("web-photo.webp")
    );
    // The PDF is still given JPEG: a WebP would be raw pixels in it.
    let images = tool(
        "pdfimages",
        &["-list"],
        &project.join("dist/photos/photos-en.pdf"),
    );
    assert_eq!(
        images.lines().nth(3).unwrap().split_whitespace().nth(8),
        Some("jpeg"),
        "{images}"
    );
}

/// The files of the image step's cache, with their modification times.
fn kept_images(dist: &Path) -> Vec<(PathBuf, std::time::SystemTime)> {
    let dir = dist.join(".cache/stoa/images");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| {
            let e = e.unwrap();
            (e.path(), e.metadata().unwrap().modified().unwrap())
        })
        .collect();
    files.sort();
    files
}

#[test]
fn a_second_build_reuses_what_was_made_and_rebuilds_are_identical() {
    let project = kept_until_exit(project_from(&fixture("images/books")));
    let build = |out: &str| {
        let result = stoa(&project, &["build", "--book", "photos", "--out", out]);
        assert!(result.status.success(), "{}", output_text(&result));
    };
    build("one");
    let made = kept_images(&project.join("one"));
    // For the EPUB and the web edition alike: the camera's photograph and
    // the two WebP; for the PDF those and the screenshot; and the web's
    // copies 800 px wide of all four.
    assert_eq!(made.len(), 11, "{made:?}");
    // An edit of the text: the edition is made again, its images are not.
    let post = project.join("books/posts/pictures/en.md");
    let text = std::fs::read_to_string(&post).unwrap();
    std::fs::write(&post, text.replace("A small picture", "A small photograph")).unwrap();
    build("one");
    assert_eq!(kept_images(&project.join("one")), made);
    // `--force` makes them again, as it draws the covers again.
    let forced = stoa(
        &project,
        &["build", "--book", "photos", "--out", "one", "--force"],
    );
    assert!(forced.status.success(), "{}", output_text(&forced));
    let again = kept_images(&project.join("one"));
    assert_eq!(again.len(), made.len());
    assert!(
        again
            .iter()
            .zip(&made)
            .all(|(a, b)| a.0 == b.0 && a.1 > b.1),
        "{again:?}"
    );
    // A build elsewhere makes the same files.
    build("two");
    for file in ["photos/photos-en.epub", "photos/photos-en.pdf"] {
        assert_eq!(
            std::fs::read(project.join("one").join(file)).unwrap(),
            std::fs::read(project.join("two").join(file)).unwrap(),
            "{file}"
        );
    }
}

#[test]
fn images_no_edition_uses_any_more_leave_the_cache() {
    let project = kept_until_exit(project_from(&fixture("images/books")));
    let build = || {
        let result = stoa(&project, &["build"]);
        assert!(result.status.success(), "{}", output_text(&result));
    };
    build();
    let dist = project.join("dist");
    let before: Vec<PathBuf> = kept_images(&dist).into_iter().map(|(p, _)| p).collect();
    // The camera's photograph replaced by a small one: nothing is made of
    // it, and what was made of the old one goes.
    let post = project.join("books/posts/pictures");
    std::fs::copy(post.join("small.jpg"), post.join("camera.jpg")).unwrap();
    build();
    let after: Vec<PathBuf> = kept_images(&dist).into_iter().map(|(p, _)| p).collect();
    assert!(after.len() < before.len(), "{before:?}\n{after:?}");
    assert!(
        after.iter().all(|p| before.contains(p)),
        "{before:?}\n{after:?}"
    );
}

/// The images known to decode whole are kept between builds (reading a
/// post decodes each image to check it): a second build decodes none of
/// them again, but an image changed since is checked again, and a damaged
/// one is still an error at its post's line (a PNG cut in half: a JPEG cut
/// so still decodes, its missing rows grey).
#[test]
fn images_checked_once_are_remembered_by_content_and_a_change_is_seen() {
    let project = kept_until_exit(project_from(&fixture("images/books")));
    let build = || stoa(&project, &["build", "--book", "photos", "-f", "epub"]);
    let out = build();
    assert!(out.status.success(), "{}", output_text(&out));
    let kept = project.join("dist/.cache/stoa/decoded");
    let keys = std::fs::read_to_string(&kept).unwrap();
    // camera.jpg, logo.webp, screenshot.png, small.jpg, web-photo.webp.
    assert_eq!(keys.lines().count(), 5, "{keys}");
    let screenshot = project.join("books/posts/pictures/screenshot.png");
    let bytes = std::fs::read(&screenshot).unwrap();
    std::fs::write(&screenshot, &bytes[..bytes.len() / 2]).unwrap();
    let out = build();
    let log = output_text(&out);
    assert!(!out.status.success(), "{log}");
    assert!(
        log.contains("screenshot.png` is damaged or truncated"),
        "{log}"
    );
    assert!(log.contains("books/posts/pictures/en.md:"), "{log}");
}
