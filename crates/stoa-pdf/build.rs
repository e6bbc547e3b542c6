//! Deflates the fonts stoa embeds (typst-assets', then stoa's own in
//! `fonts/`) into `OUT_DIR`: they are a sixth of the binary, and a build
//! inflates only those its documents use (src/fonts.rs).

use std::fmt::Write as _;
use std::path::PathBuf;

/// stoa's own fonts, all OFL, in this order (after typst-assets'): the
/// monochrome emoji face (fonts/OFL-NotoEmoji.txt), the fallback for emoji
/// and the symbols no text face has; then a serif text face, regular and
/// bold, for each script typst-assets' faces lack (fonts/OFL-Noto.txt, from
/// Debian's fonts-noto-core 20201225): Arabic (Arabic, Persian, Urdu),
/// Devanagari, Bengali, Tamil, Thai, Ethiopic, Sinhala and Khmer. (Libertinus
/// Serif has Latin, Greek, Cyrillic and Hebrew; New Computer Modern,
/// Georgian and Armenian.)
const OWN_FONTS: &[&str] = &[
    "fonts/NotoEmoji-Regular.ttf",
    "fonts/NotoNaskhArabic-Regular.ttf",
    "fonts/NotoNaskhArabic-Bold.ttf",
    "fonts/NotoSerifDevanagari-Regular.ttf",
    "fonts/NotoSerifDevanagari-Bold.ttf",
    "fonts/NotoSerifBengali-Regular.ttf",
    "fonts/NotoSerifBengali-Bold.ttf",
    "fonts/NotoSerifTamil-Regular.ttf",
    "fonts/NotoSerifTamil-Bold.ttf",
    "fonts/NotoSerifThai-Regular.ttf",
    "fonts/NotoSerifThai-Bold.ttf",
    "fonts/NotoSerifEthiopic-Regular.ttf",
    "fonts/NotoSerifEthiopic-Bold.ttf",
    "fonts/NotoSerifSinhala-Regular.ttf",
    "fonts/NotoSerifSinhala-Bold.ttf",
    "fonts/NotoSerifKhmer-Regular.ttf",
    "fonts/NotoSerifKhmer-Bold.ttf",
];

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    for font in OWN_FONTS {
        println!("cargo:rerun-if-changed={font}");
    }
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    let mut list = String::from(
        "/// typst-assets' fonts in its order, then stoa's own, deflated: the data\n\
         /// and its inflated length.\n\
         static DEFLATED: &[(&[u8], usize)] = &[\n",
    );
    let dir = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets it"));
    let own: Vec<&'static [u8]> = OWN_FONTS
        .iter()
        .map(|font| {
            let data = std::fs::read(dir.join(font)).expect("the font is in the crate's fonts/");
            &*data.leak()
        })
        .collect();
    // The tests compare each embedded file with the original.
    let mut originals = String::from(
        "/// stoa's own font files, as they are in fonts/ (for tests).\n\
         #[cfg(test)]\n\
         static OWN_FONTS: &[&[u8]] = &[\n",
    );
    for font in OWN_FONTS {
        let path = dir.join(font);
        let _ = writeln!(
            originals,
            "    include_bytes!({:?}),",
            path.display().to_string()
        );
    }
    originals.push_str("];\n");
    for (i, data) in typst_assets::fonts().chain(own).enumerate() {
        let name = format!("font-{i}.deflate");
        let deflated = miniz_oxide::deflate::compress_to_vec(data, 9);
        std::fs::write(out.join(&name), deflated).expect("write to OUT_DIR");
        let _ = writeln!(
            list,
            "    (include_bytes!(concat!(env!(\"OUT_DIR\"), \"/{name}\")), {}),",
            data.len()
        );
    }
    list.push_str("];\n");
    list.push_str(&originals);
    std::fs::write(out.join("fonts.rs"), list).expect("write to OUT_DIR");
}
