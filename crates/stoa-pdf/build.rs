//! Deflates the fonts stoa embeds (typst-assets', then stoa's own in
//! `fonts/`) into `OUT_DIR`: they are a sixth of the binary, and a build
//! inflates only those its documents use (src/fonts.rs).

use std::fmt::Write as _;
use std::path::PathBuf;

/// The monochrome emoji face (OFL, fonts/OFL-NotoEmoji.txt): the fallback
/// for emoji and the symbols no text face has.
const OWN_FONT: &str = "fonts/NotoEmoji-Regular.ttf";

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed={OWN_FONT}");
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    let mut list = String::from(
        "/// typst-assets' fonts in its order, then stoa's own, deflated: the data\n\
         /// and its inflated length.\n\
         static DEFLATED: &[(&[u8], usize)] = &[\n",
    );
    let own: &'static [u8] = std::fs::read(OWN_FONT)
        .expect("fonts/NotoEmoji-Regular.ttf is in the crate")
        .leak();
    for (i, data) in typst_assets::fonts().chain([own]).enumerate() {
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
    std::fs::write(out.join("fonts.rs"), list).expect("write to OUT_DIR");
}
