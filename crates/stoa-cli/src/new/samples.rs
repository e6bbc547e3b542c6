//! The sample text of a new project, per language: stoa has it for English,
//! Portuguese, Spanish, French and German; any other language gets English.

/// What a new book says in one language.
pub(crate) struct Sample {
    /// The book's title.
    pub title: &'static str,
    /// Its subtitle.
    pub subtitle: &'static str,
    /// Its description.
    pub description: &'static str,
    /// The heading that opens a post's glossary.
    pub glossary: &'static str,
    /// The sample post's title.
    pub post_title: &'static str,
    /// Its summary.
    pub summary: &'static str,
    /// Its Markdown body; `{image}` stands for the image's file name.
    pub body: &'static str,
}

/// The sample for `lang` (a BCP 47 tag), by its primary subtag; `None`
/// when stoa has no text in that language.
pub(crate) fn sample(lang: &str) -> Option<&'static Sample> {
    let primary = lang.split('-').next().unwrap_or(lang).to_ascii_lowercase();
    match primary.as_str() {
        "en" => Some(&EN),
        "pt" => Some(&PT),
        "es" => Some(&ES),
        "fr" => Some(&FR),
        "de" => Some(&DE),
        _ => None,
    }
}

/// English, also for a language stoa has no text in.
pub(crate) const EN: Sample = Sample {
    title: "My Book",
    subtitle: "Posts collected as a book",
    description: "A first book made with stoa from blog posts.",
    glossary: "Glossary",
    post_title: "Welcome to stoa",
    summary: "What a post can hold: a note, an image, a dialogue and a glossary.",
    body: "\
This is a sample post. Write your own in Markdown in the posts folder, one \
file per language, and list them in book.toml; stoa makes an EPUB, a PDF and \
a web edition of the book.[^build] The name comes from the stoa, the porch \
where philosophers talked, and the book is an anthology of what you wrote.

![A Greek portico: a row of columns under a triangular roof.]({image})

## A short dialogue

ANA: Is a blog post not enough?

BRUNO: A post is read once. A book is read from cover to cover.

ANA: And the notes at the foot of the page?

BRUNO: They stay notes, in every format.

## Glossary

- anthology: a collection of writings, chosen and put in order.
- stoa: a covered walkway with columns; in Athens, where the Stoics met.

[^build]: Run `stoa build` in the project's folder; the books appear in the dist folder.
",
};

const PT: Sample = Sample {
    title: "Meu livro",
    subtitle: "Textos reunidos em livro",
    description: "Um primeiro livro feito com o stoa a partir de posts de blog.",
    glossary: "Glossário",
    post_title: "Bem-vindo ao stoa",
    summary: "O que um post pode ter: uma nota, uma imagem, um diálogo e um glossário.",
    body: "\
Este é um texto de exemplo. Escreva os seus em Markdown na pasta dos posts, \
um arquivo por idioma, e liste-os no book.toml; o stoa faz um EPUB, um PDF e \
uma edição web do livro.[^build] O nome vem da stoa, o pórtico onde os \
filósofos conversavam, e o livro é uma antologia do que você escreveu.

![Um pórtico grego: uma fileira de colunas sob um telhado triangular.]({image})

## Um breve diálogo

ANA: Um post de blog não basta?

BRUNO: Um post se lê uma vez. Um livro se lê de capa a capa.

ANA: E as notas de rodapé?

BRUNO: Continuam notas, em todos os formatos.

## Glossário

- antologia: uma coleção de textos, escolhidos e postos em ordem.
- stoa: um passeio coberto com colunas; em Atenas, onde os estoicos se reuniam.

[^build]: Rode `stoa build` na pasta do projeto; os livros aparecem na pasta dist.
",
};

const ES: Sample = Sample {
    title: "Mi libro",
    subtitle: "Entradas reunidas en un libro",
    description: "Un primer libro hecho con stoa a partir de entradas de blog.",
    glossary: "Glosario",
    post_title: "Bienvenido a stoa",
    summary: "Lo que puede tener una entrada: una nota, una imagen, un diálogo y un glosario.",
    body: "\
Este es un texto de ejemplo. Escribe los tuyos en Markdown en la carpeta de \
las entradas, un archivo por idioma, y enuméralos en book.toml; stoa hace un \
EPUB, un PDF y una edición web del libro.[^build] El nombre viene de la stoa, \
el pórtico donde conversaban los filósofos, y el libro es una antología de lo \
que escribiste.

![Un pórtico griego: una hilera de columnas bajo un techo triangular.]({image})

## Un breve diálogo

ANA: ¿No basta con una entrada de blog?

BRUNO: Una entrada se lee una vez. Un libro se lee de principio a fin.

ANA: ¿Y las notas al pie?

BRUNO: Siguen siendo notas, en todos los formatos.

## Glosario

- antología: una colección de escritos, elegidos y ordenados.
- stoa: un pasillo cubierto con columnas; en Atenas, donde se reunían los estoicos.

[^build]: Ejecuta `stoa build` en la carpeta del proyecto; los libros aparecen en la carpeta dist.
",
};

const FR: Sample = Sample {
    title: "Mon livre",
    subtitle: "Des billets réunis en livre",
    description: "Un premier livre fait avec stoa à partir de billets de blog.",
    glossary: "Glossaire",
    post_title: "Bienvenue dans stoa",
    summary: "Ce qu’un billet peut contenir : une note, une image, un dialogue et un glossaire.",
    body: "\
Ceci est un texte d’exemple. Écrivez les vôtres en Markdown dans le dossier \
des billets, un fichier par langue, et listez-les dans book.toml ; stoa en \
fait un EPUB, un PDF et une édition web du livre.[^build] Le nom vient de la \
stoa, le portique où conversaient les philosophes, et le livre est une \
anthologie de ce que vous avez écrit.

![Un portique grec : une rangée de colonnes sous un toit triangulaire.]({image})

## Un court dialogue

ANA: Un billet de blog ne suffit-il pas ?

BRUNO: Un billet se lit une fois. Un livre se lit de la première à la dernière page.

ANA: Et les notes de bas de page ?

BRUNO: Elles restent des notes, dans tous les formats.

## Glossaire

- anthologie: un recueil d’écrits, choisis et mis en ordre.
- stoa: une galerie couverte à colonnes ; à Athènes, le lieu où se réunissaient les stoïciens.

[^build]: Lancez `stoa build` dans le dossier du projet ; les livres apparaissent dans le dossier dist.
",
};

const DE: Sample = Sample {
    title: "Mein Buch",
    subtitle: "Beiträge als Buch gesammelt",
    description: "Ein erstes Buch, mit stoa aus Blogbeiträgen gemacht.",
    glossary: "Glossar",
    post_title: "Willkommen bei stoa",
    summary: "Was ein Beitrag enthalten kann: eine Anmerkung, ein Bild, einen Dialog und ein Glossar.",
    body: "\
Dies ist ein Beispieltext. Schreiben Sie Ihre eigenen in Markdown in den \
Ordner der Beiträge, eine Datei pro Sprache, und tragen Sie sie in book.toml \
ein; stoa macht daraus ein EPUB, ein PDF und eine Webausgabe des Buches.[^build] \
Der Name kommt von der Stoa, der Säulenhalle, in der Philosophen sprachen, und \
das Buch ist eine Anthologie dessen, was Sie geschrieben haben.

![Eine griechische Säulenhalle: eine Reihe von Säulen unter einem dreieckigen Dach.]({image})

## Ein kurzer Dialog

ANA: Reicht ein Blogbeitrag nicht?

BRUNO: Einen Beitrag liest man einmal. Ein Buch liest man von vorne bis hinten.

ANA: Und die Fußnoten?

BRUNO: Sie bleiben Fußnoten, in jedem Format.

## Glossar

- Anthologie: eine Sammlung ausgewählter und geordneter Texte.
- Stoa: eine überdachte Säulenhalle; in Athen der Treffpunkt der Stoiker.

[^build]: Führen Sie `stoa build` im Ordner des Projekts aus; die Bücher erscheinen im Ordner dist.
",
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn languages_fall_back_by_primary_subtag_and_to_none() {
        assert_eq!(sample("pt-BR").unwrap().title, "Meu livro");
        assert_eq!(sample("es-419").unwrap().glossary, "Glosario");
        assert_eq!(sample("DE-at").unwrap().title, "Mein Buch");
        assert!(sample("it").is_none());
    }

    #[test]
    fn every_sample_has_each_feature() {
        for s in [&EN, &PT, &ES, &FR, &DE] {
            let body = s.body;
            assert!(body.contains("[^build]:"), "a footnote: {}", s.title);
            assert!(body.contains("]({image})"), "an image: {}", s.title);
            assert!(body.contains("\nANA: ") && body.contains("\nBRUNO: "));
            assert!(body.contains(&format!("## {}\n", s.glossary)));
        }
    }
}
