//! ISBNs and their EAN-13 barcodes, and QR codes of web addresses.
//!
//! [`Isbn::parse`] reads what an author writes (an ISBN-13 or an ISBN-10,
//! with or without hyphens and spaces), checks the check digit and keeps
//! the author's grouping for print; [`Ean13::of`] encodes the thirteen
//! digits as the 95 modules of an EAN-13 symbol, which [`Ean13::bars`]
//! turns into rectangles that any renderer can draw (Typst rectangles in
//! the PDF, [`Ean13::svg`] for anything else).
//!
//! Dimensions follow GS1 General Specifications, section 5.2 (EAN-13): a
//! module of 0.330 mm at 100 % magnification, bars 22.85 mm tall, the
//! guard bars 5 modules longer, quiet zones of 11 modules on the left and
//! 7 on the right.
//!
//! [`Qr::of`] encodes a web address as a QR code (by `qrcodegen`, the one
//! dependency) for print, where a link cannot be followed; [`Qr::svg`]
//! draws it as vector paths.

mod ean;
mod isbn;
mod qr;

pub use ean::{Bar, Ean13, Geometry};
pub use isbn::{Isbn, IsbnError};
pub use qr::{QUIET_ZONE, Qr, QrError};
