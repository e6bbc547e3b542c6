//! A drawn page as a PNG file: colour without alpha when the page is
//! opaque, as a cover is, compressed for speed at a size close to the best.

/// A Typst-rendered pixmap (premultiplied RGBA) as PNG bytes.
///
/// An opaque page is written as RGB, a page with any transparency keeps
/// its alpha. Deflate at level 3 with adaptive filters: on the covers of
/// books/, 3.6 ms and 50 KiB a cover against 5.2 ms and 49 KiB at the
/// default level 6, and 52 KiB as RGBA (the encoder was a sixth of the
/// CPU time of a cold EPUB-only build, by `perf record`).
pub(crate) fn encode(pixmap: &tiny_skia::Pixmap) -> Result<Vec<u8>, String> {
    let rgba = pixmap.data();
    let (color, pixels) = if rgba.chunks_exact(4).all(|p| p[3] == u8::MAX) {
        // Premultiplied and straight colour agree where alpha is full.
        // Into a buffer of the final size, pixel by pixel: pushing onto a
        // growing one was a third of the encoder's time.
        let mut rgb = vec![0; rgba.len() / 4 * 3];
        for (to, from) in rgb.chunks_exact_mut(3).zip(rgba.chunks_exact(4)) {
            to.copy_from_slice(&from[..3]);
        }
        (png::ColorType::Rgb, rgb)
    } else {
        let straight = pixmap.clone().take_demultiplied();
        (png::ColorType::Rgba, straight)
    };
    let mut out = Vec::with_capacity(pixels.len() / 16);
    let mut encoder = png::Encoder::new(&mut out, pixmap.width(), pixmap.height());
    encoder.set_color(color);
    encoder.set_depth(png::BitDepth::Eight);
    encoder.set_deflate_compression(png::DeflateCompression::Level(3));
    encoder.set_filter(png::Filter::Adaptive);
    let mut writer = encoder.write_header().map_err(|e| e.to_string())?;
    writer
        .write_image_data(&pixels)
        .map_err(|e| e.to_string())?;
    writer.finish().map_err(|e| e.to_string())?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decode(png: &[u8]) -> (png::ColorType, Vec<u8>) {
        let mut reader = png::Decoder::new(std::io::Cursor::new(png))
            .read_info()
            .unwrap();
        let mut buf = vec![0; reader.output_buffer_size().unwrap()];
        let info = reader.next_frame(&mut buf).unwrap();
        buf.truncate(info.buffer_size());
        (info.color_type, buf)
    }

    #[test]
    fn an_opaque_page_is_rgb_with_the_same_pixels() {
        let mut pixmap = tiny_skia::Pixmap::new(3, 2).unwrap();
        pixmap.fill(tiny_skia::Color::from_rgba8(200, 10, 30, 255));
        let (color, pixels) = decode(&encode(&pixmap).unwrap());
        assert_eq!(color, png::ColorType::Rgb);
        assert_eq!(pixels, [200, 10, 30].repeat(6));
    }

    #[test]
    fn a_page_with_transparency_keeps_its_alpha() {
        let mut pixmap = tiny_skia::Pixmap::new(2, 2).unwrap();
        pixmap.fill(tiny_skia::Color::from_rgba8(255, 0, 0, 128));
        let (color, pixels) = decode(&encode(&pixmap).unwrap());
        assert_eq!(color, png::ColorType::Rgba);
        assert_eq!(&pixels[..4], &[255, 0, 0, 128]);
    }
}
