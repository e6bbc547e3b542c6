//! Books built by hand for the tests and the sample renderer.
#![allow(dead_code, missing_docs)]

use std::path::{Path, PathBuf};

use stoa_doc::{
    Align, Attrs, Block, Book, BookMeta, Chapter, ChapterKind, Inline, Labels, ListItem, NoteStyle,
    Print, Role, TREE_VERSION,
};

pub fn t(s: &str) -> Inline {
    Inline::text(s)
}

pub fn p(inlines: Vec<Inline>) -> Block {
    Block::Paragraph { content: inlines }
}

pub fn pt(s: &str) -> Block {
    p(vec![t(s)])
}

pub fn item(blocks: Vec<Block>) -> ListItem {
    ListItem {
        checked: None,
        blocks,
    }
}

pub fn theme_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../themes/classic")
}

pub fn labels_pt() -> Labels {
    Labels {
        contents: "Sumário".into(),
        about_author: "Sobre o autor".into(),
        notes: "Notas".into(),
        back_to_text: "Voltar ao texto".into(),
        typeset_with: "Composto com stoa".into(),
        title_page: "Folha de rosto".into(),
        cover: "Capa".into(),
        colophon: "Colofão".into(),
        glossary: "Glossário".into(),
        characters: "Personagens".into(),
        index: "Índice remissivo".into(),
        see: "ver".into(),
        see_also: "ver também".into(),
        references: "Referências".into(),
        ..Labels::for_language("pt-BR")
    }
}

pub fn book(chapters: Vec<Chapter>) -> Book {
    Book {
        version: TREE_VERSION,
        id: "ensaios".into(),
        lang: "pt-BR".into(),
        meta: BookMeta {
            title: "Ensaios sobre Código e Linguagem".into(),
            subtitle: Some("Escritos reunidos de um blog".into()),
            author: "Ana Beatriz Souza".into(),
            description: Some("Uma antologia.".into()),
            identifier: "urn:stoa:ensaios:pt-BR".into(),
            date: "2024-05-17".into(),
            modified: "2024-05-17T00:00:00Z".into(),
        },
        labels: labels_pt(),
        chapters,
        assets: Vec::new(),
        styles: Vec::new(),
        print: Print::default(),
    }
}

pub fn chapter(slug: &str, title: &str, blocks: Vec<Block>) -> Chapter {
    Chapter {
        slug: slug.into(),
        title: title.into(),
        date: Some("2023-03-02".into()),
        source: Some(format!("books/posts/{slug}/pt.md")),
        blocks,
        ..Chapter::default()
    }
}

const PROSE: [&str; 4] = [
    "Quando comecei a escrever este blog, não imaginava que os textos um dia virariam livro. Escrevia para mim, quase sempre à noite, depois de um dia inteiro olhando para o mesmo problema sem conseguir enxergá-lo de outro ângulo. Escrever era uma forma de pensar devagar.",
    "Há uma pergunta que me persegue desde então\u{a0}: o que torna um programa legível\u{a0}? Não é a quantidade de comentários, nem a ausência deles. É algo mais próximo da prosa — a sensação de que cada frase leva naturalmente à seguinte, de que nada está ali por acaso.",
    "Os programadores costumam desprezar a retórica, como se ela fosse um enfeite. Mas a retórica, no sentido antigo, é a arte de organizar o pensamento para outra pessoa. Um código bem escrito é um argumento bem construído\u{a0}; um código mal escrito é uma conversa em que ninguém escuta ninguém.",
    "Talvez por isso eu volte sempre aos mesmos autores. Eles me ensinaram que a clareza não é simplicidade, e que a simplicidade não é pobreza. Entre uma coisa e outra há um caminho estreito, e é nele que vale a pena caminhar — com paciência, com atenção, e sem pressa de chegar.",
];

/// A sizeable book: three posts with prose, code, lists, a quote, a table
/// and notes, then an about-the-author chapter.
pub fn sample_book() -> Book {
    let java = "public class Saudacao {\n    // Uma linha muito longa, de propósito, para ver como o tema quebra e marca a continuação das linhas de código.\n    public static void main(String[] args) {\n        System.out.println(\"Olá, mundo!\");\n        for (int i = 0; i < args.length; i++) { System.out.printf(\"%d: %s%n\", i, args[i]); }\n    }\n}\n";
    let mut one = vec![
        pt(PROSE[0]),
        p(vec![
            t(PROSE[1]),
            t(" Veja a nota"),
            Inline::FootnoteRef { label: "1".into() },
            t("."),
        ]),
        pt(PROSE[2]),
        Block::Heading {
            level: 2,
            id: "um-exemplo".into(),
            content: vec![t("Um exemplo em Java")],
        },
        p(vec![
            t("O programa abaixo usa "),
            Inline::Code {
                text: "System.out.println".into(),
            },
            t(" e "),
            Inline::Emph {
                content: vec![t("nada mais")],
            },
            t(" ; é o começo de tudo."),
        ]),
        Block::Code {
            lang: Some("java".into()),
            text: java.into(),
        },
        pt(PROSE[3]),
        Block::FootnoteDef {
            label: "1".into(),
            blocks: vec![pt(
                "A pergunta não é minha: aparece, de um jeito ou de outro, em todo livro sobre programação que vale a pena ler.",
            )],
        },
    ];
    one.extend(PROSE.iter().rev().map(|s| pt(s)));
    let two = vec![
        pt(PROSE[1]),
        Block::List {
            start: None,
            tight: true,
            items: vec![
                item(vec![pt(
                    "Ler devagar, anotando as dúvidas à margem do texto, como se fazia antigamente.",
                )]),
                item(vec![
                    pt("Reescrever o que não se entendeu:"),
                    Block::List {
                        start: Some(1),
                        tight: true,
                        items: vec![
                            item(vec![pt("primeiro com as próprias palavras;")]),
                            item(vec![pt("depois em código, se couber.")]),
                        ],
                    },
                ]),
                item(vec![pt("Voltar ao começo.")]),
            ],
        },
        pt(PROSE[2]),
        Block::Quote {
            blocks: vec![pt(
                "A simplicidade é a sofisticação máxima. Mas chegar a ela exige um trabalho enorme, e quase sempre invisível.",
            )],
        },
        pt(PROSE[3]),
        Block::Rule,
        pt(PROSE[0]),
        Block::Table {
            align: vec![Align::Left, Align::Right, Align::Center],
            head: vec![vec![t("Linguagem")], vec![t("Ano")], vec![t("Tipagem")]],
            rows: vec![
                vec![vec![t("Java")], vec![t("1995")], vec![t("estática")]],
                vec![vec![t("Python")], vec![t("1991")], vec![t("dinâmica")]],
                vec![vec![t("Rust")], vec![t("2015")], vec![t("estática")]],
            ],
        },
        pt(PROSE[1]),
    ];
    let three: Vec<Block> = PROSE.iter().cycle().take(22).map(|s| pt(s)).collect();
    let terms = Chapter {
        kind: ChapterKind::Appendix,
        role: Some(Role::Glossary),
        date: None,
        ..chapter("termos", "Termos", vec![terms()])
    };
    let about = Chapter {
        kind: ChapterKind::About,
        date: None,
        ..chapter(
            "sobre",
            "Sobre a autora",
            vec![pt(
                "Ana Beatriz Souza escreve software e ensaios em São Paulo.",
            )],
        )
    };
    book(vec![
        chapter("legibilidade", "O que torna um programa legível ?", one),
        chapter("curto", "Um texto curto", vec![pt(PROSE[2])]),
        chapter("ler-devagar", "Ler devagar", two),
        chapter(
            "prosa",
            "Da prosa ao código, e de volta: notas sobre um caminho estreito",
            three,
        ),
        chapter("conversa", "Uma conversa", conversation()),
        terms,
        about,
    ])
}

/// Text that Typst would read as markup, code or a file access if it were
/// pasted into the source instead of escaped.
pub const PAYLOADS: [&str; 16] = [
    "#read(\"/etc/passwd\")",
    "$x^2$ costs $5",
    "@Override",
    "List<String> names",
    "back\\slash",
    "closing ] bracket",
    "*not bold*",
    "_not italic_",
    "// not a comment",
    "/* not a comment */",
    "= not a heading",
    "- not a list",
    "+ not an enum",
    "1. not numbered",
    "#set text(fill: red)",
    "\"]; #panic() //",
];

pub fn injection_book() -> Book {
    let mut blocks: Vec<Block> = PAYLOADS.iter().map(|s| pt(s)).collect();
    // Line starts inside one paragraph, after forced breaks.
    let mut lines = vec![t("Lines:")];
    for s in ["= a", "- b", "+ c", "1. d", "#e", "// f"] {
        lines.push(Inline::LineBreak);
        lines.push(t(s));
    }
    blocks.push(p(lines));
    blocks.push(Block::Heading {
        level: 2,
        id: "h".into(),
        content: vec![t("Heading #h $ @ <x>")],
    });
    blocks.push(Block::Code {
        lang: Some("java".into()),
        text: "@Override\n= <T> #x $y // ]\n".into(),
    });
    blocks.push(Block::List {
        start: None,
        tight: true,
        items: vec![item(vec![pt("item *x* #y")]), item(vec![pt("item _z_ ]")])],
    });
    blocks.push(Block::Table {
        align: vec![Align::Left, Align::Right],
        head: vec![vec![t("cell #a")], vec![t("cell $b")]],
        rows: vec![vec![vec![t("cell <c>")], vec![t("cell @d")]]],
    });
    blocks.push(p(vec![
        t("See "),
        Inline::Link {
            url: "https://example.com/?q=\"#x\"".into(),
            title: String::new(),
            content: vec![t("link *text* #here")],
        },
        t(" and "),
        Inline::Strong {
            content: vec![t("strong ]")],
        },
        t(" "),
        Inline::Code {
            text: "`code` #c".into(),
        },
    ]));
    book(vec![chapter("payload", "Title #t $ @u <v>", blocks)])
}

/// A container with a role; the class is this test's own, as a plugin's would be.
pub fn div(role: Option<Role>, class: &str, blocks: Vec<Block>) -> Block {
    Block::Div {
        role,
        class: class.into(),
        attrs: Attrs::new(),
        blocks,
    }
}

/// A list of terms and definitions, as a plugin would make it for a book.
pub fn terms() -> Block {
    let entry = |term: &str, def: &str| {
        [
            div(Some(Role::Term), "entry-term", vec![pt(term)]),
            div(Some(Role::Definition), "entry-def", vec![pt(def)]),
        ]
    };
    div(
        Some(Role::Glossary),
        "entries",
        [
            entry("Legibilidade", "A qualidade do que se lê sem esforço: no código, a de um programa que se entende na primeira leitura."),
            entry("Retórica", "A arte de organizar o pensamento para outra pessoa."),
            entry("Prosa", "O texto corrido, sem metro; o contrário do verso."),
        ]
        .into_iter()
        .flatten()
        .collect(),
    )
}

/// A dialogue of turns, each opened by who speaks.
pub fn conversation() -> Vec<Block> {
    let turn = |who: &str, words: &str| {
        div(
            Some(Role::Turn),
            "line",
            vec![p(vec![
                Inline::Span {
                    role: Some(Role::Speaker),
                    class: "who".into(),
                    attrs: Attrs::new(),
                    content: vec![t(who)],
                },
                t(" "),
                t(words),
            ])],
        )
    };
    vec![
        pt(PROSE[0]),
        div(
            Some(Role::Dialogue),
            "talk",
            vec![
                turn("Sócrates", "Dize-me, o que é um programa legível?"),
                turn("Fedro", "Aquele que se lê como prosa, creio."),
                turn(
                    "Sócrates",
                    "E a prosa, lê-se sem esforço? Ou exige de quem lê a mesma atenção que exigiu de quem escreveu?",
                ),
            ],
        ),
    ]
}

/// Three posts with notes, set as `style` says (a notes chapter closes the
/// book when they go there); the second post has two notes, the first of
/// them referenced twice.
pub fn notes_book(style: NoteStyle) -> Book {
    let noted = |slug: &str, title: &str, labels: &[&str]| {
        let mut text = vec![t(PROSE[1])];
        for label in labels {
            text.push(Inline::FootnoteRef {
                label: (*label).into(),
            });
            text.push(t(" E mais."));
        }
        let mut blocks = vec![p(text), pt(PROSE[2])];
        let mut defined: Vec<&str> = labels.to_vec();
        defined.sort_unstable();
        defined.dedup();
        blocks.extend(defined.iter().map(|label| Block::FootnoteDef {
            label: (*label).into(),
            blocks: vec![pt(&format!("Nota {label} de {title}."))],
        }));
        Chapter {
            notes: Some(style),
            ..chapter(slug, title, blocks)
        }
    };
    let mut chapters = vec![
        noted("um", "Primeiro", &["a"]),
        noted("dois", "Segundo", &["a", "b", "a"]),
        noted("tres", "Terceiro", &["x"]),
    ];
    if style.placement == stoa_doc::NotePlacement::NotesChapter {
        chapters.push(Chapter {
            kind: ChapterKind::Notes,
            notes: Some(style),
            date: None,
            ..chapter("notas", "Notas", vec![])
        });
    }
    book(chapters)
}
