//! `[images]` in book.toml: how the images of the posts are made for each
//! output (see the stoa-image crate): the density of the reader's PDF, the
//! quality of the JPEG files made, and whether the EPUB keeps WebP.

use crate::source::SourceFile;
use serde::Deserialize;
use stoa_doc::Diagnostic;

/// The `[images]` table, checked.
#[derive(Clone, Copy, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct Images {
    /// `pdf-ppi`: the most pixels per inch an image keeps in the reader's
    /// PDF, at the size it is placed (a print job keeps 300).
    #[serde(default = "default_pdf_ppi")]
    pub pdf_ppi: f64,
    /// `jpeg-quality`: the quality (1–100) of a JPEG made from a
    /// photograph that had to be scaled or converted.
    #[serde(default = "default_jpeg_quality")]
    pub jpeg_quality: u8,
    /// `epub-webp = true`: the EPUB and the web edition keep WebP images as
    /// they are (Kindle and Apple Books before iOS 14 do not show them).
    #[serde(default)]
    pub epub_webp: bool,
}

impl Default for Images {
    fn default() -> Self {
        Images {
            pdf_ppi: default_pdf_ppi(),
            jpeg_quality: default_jpeg_quality(),
            epub_webp: false,
        }
    }
}

/// A screen's density: sharp on a tablet, a tenth of print's file size.
fn default_pdf_ppi() -> f64 {
    200.0
}

fn default_jpeg_quality() -> u8 {
    85
}

/// The densities a reader's PDF may ask for: a screen's at least, no more
/// than a photo setter's.
const PPI: std::ops::RangeInclusive<f64> = 72.0..=1200.0;

impl Images {
    /// Checks the values, each at its line.
    pub(crate) fn check(&self, file: &SourceFile, errors: &mut Vec<Diagnostic>) {
        if !PPI.contains(&self.pdf_ppi) {
            errors.push(
                file.error_at(
                    file.find("pdf-ppi", 0),
                    format!("[images] pdf-ppi = {} is out of range", self.pdf_ppi),
                )
                .with_hint("write a density from 72 to 1200 pixels per inch (200 suits screens)"),
            );
        }
        if !(1..=100).contains(&self.jpeg_quality) {
            errors.push(
                file.error_at(
                    file.find("jpeg-quality", 0),
                    format!(
                        "[images] jpeg-quality = {} is out of range",
                        self.jpeg_quality
                    ),
                )
                .with_hint("write a quality from 1 to 100 (85 keeps photographs clean)"),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Images;
    use crate::load_english_with as load;

    #[test]
    fn images_have_sane_defaults_and_take_their_settings() {
        assert_eq!(load("").unwrap().images, Images::default());
        let config =
            load("[images]\npdf-ppi = 150\njpeg-quality = 80\nepub-webp = true\n").unwrap();
        assert_eq!(
            config.images,
            Images {
                pdf_ppi: 150.0,
                jpeg_quality: 80,
                epub_webp: true
            }
        );
    }

    #[test]
    fn a_value_out_of_range_is_told_at_its_line() {
        let errors = load("[images]\npdf-ppi = 20\n").unwrap_err();
        let text = errors[0].to_string();
        assert!(text.contains("pdf-ppi = 20"), "{text}");
        assert_eq!(errors[0].line, Some(7), "{text}");
        let errors = load("[images]\njpeg-quality = 0\n").unwrap_err();
        assert!(
            errors[0].to_string().contains("jpeg-quality"),
            "{}",
            errors[0]
        );
        let errors = load("[images]\nwebp = true\n").unwrap_err();
        assert!(
            errors[0].to_string().contains("unknown field"),
            "{}",
            errors[0]
        );
    }
}
