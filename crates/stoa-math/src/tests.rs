//! Every formula is checked where it ends: the MathML parsed as XML, the
//! Typst math compiled by Typst.

use crate::{Formula, MathError};
use proptest::prelude::*;
use std::sync::OnceLock;
use typst::diag::{FileError, FileResult};
use typst::foundations::{Bytes, Datetime, Duration};
use typst::syntax::{FileId, Source};
use typst::text::{Font, FontBook};
use typst::utils::LazyHash;
use typst::{Library, LibraryExt, World};
use typst_layout::PagedDocument;

/// What blogs write: the formulas of a first course, amsmath's
/// environments, and symbols that mean something to Typst's syntax.
const FORMULAS: &[&str] = &[
    r"E = mc^2",
    r"\frac{a}{b} + \dfrac{1}{2}",
    r"\sqrt{x} + \sqrt[3]{x}",
    r"\sum_{i=0}^{n} i^2 = \frac{n(n+1)(2n+1)}{6}",
    r"\int_0^\infty e^{-x}\,dx = 1",
    r"\lim_{x \to 0} \frac{\sin x}{x} = 1",
    r"\alpha + \beta \cdot \gamma \leq \Omega",
    r"x \in \mathbb{R}, \mathbf{v} \times \mathcal{F}",
    r"\hat{x} + \vec{v} + \bar{y} + \tilde{z} + \overline{AB}",
    r"\left( \frac{a}{b} \right)^2 \left[ x \right] \left\{ y \right\}",
    r"\begin{pmatrix} a & b \\ c & d \end{pmatrix}",
    r"\begin{bmatrix} 1 & 0 \\ 0 & 1 \end{bmatrix}",
    r"|x| = \begin{cases} x & x \geq 0 \\ -x & \text{otherwise} \end{cases}",
    r"\begin{aligned} a &= b + c \\ d &= e \end{aligned}",
    r"a \neq b, x \notin A, \not\subset",
    r"f'(x) = \lim_{h\to 0} \frac{f(x+h) - f(x)}{h}",
    r"1{,}5 + 2.25",
    r"O(n \log n), \operatorname{argmax}_x f(x)",
    r"\binom{n}{k} = \frac{n!}{k!(n-k)!}",
    r"\{ x \mid x > 0 \}",
    r"a \quad b \qquad c \, d \; e \! f",
    r"\mathrm{d}x \, \mathit{text} \, \mathsf{S} \, \mathtt{mono} \, \mathfrak{g}",
    r"\# \$ \% \& \_ \{ \}",
    r"\frac{\ln 2}{|r|} + \|v\| + a \parallel b",
    r"a_{i,j} + x^{2,3} + y_{k;l}",
    r#"\text{a "quoted" #text} + \text{back\slash}"#,
    r"\displaystyle\sum_k k \textstyle\sum_k k",
    r"\underbrace{a + b}_{n} + \overbrace{c}^{m}",
    r"A \Rightarrow B \iff C \to D \mapsto E",
    r"\langle u, v \rangle",
    r"",
];

#[test]
fn every_formula_is_mathml_that_parses_as_xml() {
    for tex in FORMULAS {
        for formula in [Formula::inline(tex), Formula::display(tex)] {
            let mathml = formula.mathml().unwrap_or_else(|e| panic!("{tex}: {e}"));
            let doc = roxmltree::Document::parse(&mathml)
                .unwrap_or_else(|e| panic!("{tex}: not XML ({e}):\n{mathml}"));
            let math = doc.root_element();
            assert_eq!(math.tag_name().name(), "math", "{mathml}");
            assert_eq!(math.attribute("alttext"), Some(*tex), "{mathml}");
            assert_eq!(
                math.attribute("display"),
                formula.display.then_some("block"),
                "{mathml}"
            );
        }
    }
}

#[test]
fn every_formula_is_typst_math_that_compiles() {
    for tex in FORMULAS {
        for formula in [Formula::inline(tex), Formula::display(tex)] {
            let typst = formula.typst().unwrap_or_else(|e| panic!("{tex}: {e}"));
            if let Err(e) = compile(&typst) {
                panic!("{tex}\n  as {typst}\n  does not compile: {e}");
            }
        }
    }
}

#[test]
fn a_bar_is_set_tight_as_tex_sets_it() {
    let typst = Formula::inline(r"\frac{\ln 2}{|r|} + \|v\|")
        .typst()
        .unwrap();
    assert!(
        typst.contains(r#"class("normal", \|) r class("normal", \|)"#),
        "{typst}"
    );
    assert!(
        typst.contains(r#"class("normal", ∥) v class("normal", ∥)"#),
        "{typst}"
    );
    // `\mid` is a relation in TeX too: spaced.
    let mid = Formula::inline(r"\{ x \mid x > 0 \}").typst().unwrap();
    assert!(!mid.contains("class("), "{mid}");
}

#[test]
fn display_math_has_spaces_inside_its_dollars_inline_math_none() {
    assert_eq!(Formula::inline("x").typst().unwrap(), "$x$");
    assert_eq!(Formula::display("x").typst().unwrap(), "$ x $");
}

#[test]
fn symbols_that_are_typst_syntax_are_printed() {
    let typst = Formula::inline(r"\# a / b").typst().unwrap();
    assert!(typst.contains(r"\#"), "{typst}");
    assert!(typst.contains(r"\/"), "{typst}");
    assert!(!typst.contains(" #"), "no code: {typst}");
}

#[test]
fn text_cannot_become_code() {
    for hostile in [
        r#"\text{"); #read("/etc/passwd") ("}"#,
        r#"\text{$ #panic() $}"#,
        r"\operatorname{#panic()}",
    ] {
        let typst = Formula::inline(hostile).typst().unwrap();
        // The test world refuses every file and `panic()` fails: that it
        // compiles shows that neither ran.
        compile(&typst).unwrap_or_else(|e| panic!("{hostile} as {typst}: {e}"));
        let mathml = Formula::inline(hostile).mathml().unwrap();
        roxmltree::Document::parse(&mathml).unwrap();
    }
}

#[test]
fn a_broken_formula_is_an_error_that_says_why() {
    for broken in [r"\frac{a}{", r"x^", r"\left( x", r"\begin{matrix} a", r"}"] {
        let e: MathError = Formula::inline(broken).check().unwrap_err();
        assert!(!e.message.is_empty(), "{broken}");
        assert_eq!(Formula::inline(broken).mathml().unwrap_err(), e);
        assert_eq!(Formula::inline(broken).typst().unwrap_err(), e);
    }
}

#[test]
fn deep_nesting_is_refused_not_a_stack_overflow() {
    let deep = format!("{}x{}", "{".repeat(10_000), "}".repeat(10_000));
    let result = std::thread::Builder::new()
        .stack_size(256 * 1024)
        .spawn(move || Formula::inline(&deep).typst().map(drop))
        .unwrap()
        .join();
    assert!(result.expect("no stack overflow").is_err());
}

/// Pieces of LaTeX math, in any order: most sequences are not formulas.
fn piece() -> impl Strategy<Value = &'static str> {
    prop::sample::select(vec![
        "x",
        "2",
        "+",
        "-",
        "=",
        "^",
        "_",
        "{",
        "}",
        r"\frac",
        r"\sqrt",
        r"\alpha",
        r"\sum",
        r"\left(",
        r"\right)",
        "&",
        r"\\",
        r#"\text{a"b}"#,
        "#",
        r"\#",
        ",",
        " ",
        "'",
        r"\mathbf",
        r"\begin{pmatrix}",
        r"\end{pmatrix}",
        r"\begin{cases}",
        r"\end{cases}",
        r"\not",
        "<",
        ">",
        "/",
        "*",
        "(",
        ")",
        "[",
        "]",
        "|",
        r"\,",
        r"\hat",
        r"\overline",
        r"\operatorname{f}",
        "é",
        "\u{2028}",
        r"\$",
        "$",
    ])
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 192, ..ProptestConfig::default() })]

    /// Whatever the pieces make, it is an error or a formula whose
    /// MathML is XML and whose Typst compiles, never a panic.
    #[test]
    fn any_formula_is_an_error_or_compiles(pieces in prop::collection::vec(piece(), 0..14)) {
        let tex = pieces.concat();
        for formula in [Formula::inline(&tex), Formula::display(&tex)] {
            match formula.typst() {
                Err(_) => prop_assert!(formula.mathml().is_err()),
                Ok(typst) => {
                    prop_assert!(compile(&typst).is_ok(), "{} as {}: {:?}", tex, typst, compile(&typst));
                    let mathml = formula.mathml().unwrap();
                    prop_assert!(roxmltree::Document::parse(&mathml).is_ok(), "{}", mathml);
                }
            }
        }
    }
}

/// Compiles `math` as the body of a Typst document.
fn compile(math: &str) -> Result<(), String> {
    let world = TestWorld::new(format!("#set page(width: 12cm, height: auto)\n{math}\n"));
    let result = typst::compile::<PagedDocument>(&world).output;
    result.map(drop).map_err(|errors| {
        errors
            .iter()
            .map(|e| e.message.to_string())
            .collect::<Vec<_>>()
            .join("; ")
    })
}

struct TestWorld {
    main: Source,
}

fn fonts() -> &'static (LazyHash<FontBook>, Vec<Font>) {
    static FONTS: OnceLock<(LazyHash<FontBook>, Vec<Font>)> = OnceLock::new();
    FONTS.get_or_init(|| {
        let fonts: Vec<Font> = typst_assets::fonts()
            .flat_map(|data| Font::iter(Bytes::new(data)))
            .collect();
        (LazyHash::new(FontBook::from_fonts(&fonts)), fonts)
    })
}

fn library() -> &'static LazyHash<Library> {
    static LIBRARY: OnceLock<LazyHash<Library>> = OnceLock::new();
    LIBRARY.get_or_init(|| LazyHash::new(Library::default()))
}

impl TestWorld {
    fn new(text: String) -> Self {
        TestWorld {
            main: Source::detached(text),
        }
    }
}

impl World for TestWorld {
    fn library(&self) -> &LazyHash<Library> {
        library()
    }
    fn book(&self) -> &LazyHash<FontBook> {
        &fonts().0
    }
    fn main(&self) -> FileId {
        self.main.id()
    }
    fn source(&self, id: FileId) -> FileResult<Source> {
        if id == self.main.id() {
            Ok(self.main.clone())
        } else {
            Err(FileError::AccessDenied)
        }
    }
    fn file(&self, _id: FileId) -> FileResult<Bytes> {
        Err(FileError::AccessDenied)
    }
    fn font(&self, index: usize) -> Option<Font> {
        fonts().1.get(index).cloned()
    }
    fn today(&self, _offset: Option<Duration>) -> Option<Datetime> {
        None
    }
}

/// `STOA_MATH_PNG=/tmp/math.png cargo test -p stoa-math -- --ignored`
/// draws every formula, inline and display, for a look.
#[test]
#[ignore = "draws the formulas into a PNG file, for a look"]
fn draw() {
    let mut source = String::from("#set page(width: 16cm, height: auto, margin: 1cm)\n");
    for tex in FORMULAS {
        let inline = Formula::inline(tex).typst().unwrap();
        let display = Formula::display(tex).typst().unwrap();
        source.push_str(&format!("Inline {inline} and display: {display}\n\n"));
    }
    let world = TestWorld::new(source);
    let document = typst::compile::<PagedDocument>(&world).output.unwrap();
    let options = typst_render::RenderOptions {
        pixel_per_pt: typst::utils::Scalar::new(2.0),
        render_bleed: false,
    };
    let png = typst_render::render(&document.pages()[0], &options)
        .encode_png()
        .unwrap();
    let path = std::env::var("STOA_MATH_PNG").unwrap_or_else(|_| "math.png".into());
    std::fs::write(path, png).unwrap();
}

#[test]
fn a_span_gives_back_its_formula() {
    for display in [false, true] {
        let stoa_doc::Inline::Span {
            role,
            attrs,
            content,
            ..
        } = crate::span(r"\frac{a}{b}", display)
        else {
            panic!("a span")
        };
        assert_eq!(role, Some(stoa_doc::Role::Math));
        assert_eq!(
            crate::of_span(&attrs, &content),
            (r"\frac{a}{b}".to_string(), display)
        );
    }
}
