//! Equation numbers as MathJax writes them: `\label{key}` and `\tag{2}`
//! inside a display formula, `\eqref{key}` and `\ref{key}` in the text or
//! as a formula of their own, `\notag` and `\nonumber`. The formula keeps
//! its mathematics; its number joins stoa's own numbering of equations
//! (`$$…$$ {#eq:name}`, stoa-xref), so that the references print the
//! number and link to it (with the page in print), in every format.

use std::borrow::Cow;

/// A display formula with MathJax's numbering commands taken out.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Numbered {
    /// The formula without `\label`, `\tag`, `\notag` and `\nonumber`.
    pub tex: String,
    /// The stoa label the formula takes (`eq:…`), when it is numbered.
    pub label: Option<String>,
}

/// The label stoa gives a MathJax key: `eq:` and the key, its characters
/// that a label cannot hold made `-`.
pub(crate) fn label_of(key: &str) -> String {
    let key: String = key
        .trim()
        .chars()
        .map(
            |c| match c.is_alphanumeric() || matches!(c, '-' | '_' | ':' | '.') {
                true => c,
                false => '-',
            },
        )
        .collect();
    format!("eq:{key}")
}

/// The prefix of the labels made for a `\tag` without a `\label`: the
/// author asked for a number nothing refers to.
pub(crate) const TAG_PREFIX: &str = "eq:tag-";

/// Takes MathJax's numbering commands out of a display formula.
pub(crate) fn numbering(tex: &str) -> Numbered {
    let mut out = String::with_capacity(tex.len());
    let (mut label, mut tag) = (None, None);
    let mut rest = tex;
    while let Some(at) = rest.find('\\') {
        out.push_str(&rest[..at]);
        let after = &rest[at + 1..];
        let name_len = after.chars().take_while(char::is_ascii_alphabetic).count();
        let name = &after[..name_len];
        let mut tail = &after[name_len..];
        let starred = name == "tag" && tail.starts_with('*');
        if starred {
            tail = &tail[1..];
        }
        if let ("label" | "tag", Some((arg, end))) = (name, braced(tail)) {
            match name {
                "label" => label = Some(arg.to_string()),
                _ => tag = Some(arg.to_string()),
            }
            rest = &tail[end..];
            continue;
        }
        if matches!(name, "notag" | "nonumber") {
            rest = tail;
            continue;
        }
        // Any other command (or `\\`, `\{`): kept as written.
        let keep = 1 + name_len.max(after.chars().next().map_or(0, char::len_utf8));
        out.push_str(&rest[at..at + keep]);
        rest = &rest[at + keep..];
    }
    out.push_str(rest);
    let label = match (label, tag) {
        (Some(key), _) => Some(label_of(&key)),
        (None, Some(tag)) => Some(format!("{TAG_PREFIX}{}", &label_of(&tag)[3..])),
        (None, None) => None,
    };
    Numbered { tex: out, label }
}

/// `{…}` at the start of `s` (spaces before it aside): its inside and
/// where it ends.
fn braced(s: &str) -> Option<(&str, usize)> {
    let start = s.len() - s.trim_start().len();
    let s2 = &s[start..];
    if !s2.starts_with('{') {
        return None;
    }
    let mut depth = 0usize;
    for (i, c) in s2.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    return Some((&s2[1..i], start + i + 1));
                }
            }
            _ => {}
        }
    }
    None
}

/// A formula that is nothing but a reference (`$\eqref{key}$`): the text
/// stoa's references read, `(-@eq:key)` or `-@eq:key`.
pub(crate) fn lone_reference(tex: &str) -> Option<String> {
    let tex = tex.trim();
    for (cmd, open, close) in [("\\eqref", "(", ")"), ("\\ref", "", "")] {
        if let Some(tail) = tex.strip_prefix(cmd) {
            let (key, end) = braced(tail)?;
            if end == tail.len() && !key.trim().is_empty() {
                return Some(format!("{open}-@{}{close}", label_of(key)));
            }
        }
    }
    None
}

/// Text with its `\eqref{key}` written `(-@eq:key)` and its `\ref{key}`
/// written `-@eq:key`: stoa's references to the number alone.
pub(crate) fn refs_in_text(text: &str) -> Cow<'_, str> {
    if !text.contains("ref{") {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    let mut rest = text;
    loop {
        let next = ["\\eqref", "\\ref"]
            .iter()
            .filter_map(|cmd| rest.find(cmd).map(|at| (at, *cmd)))
            .min();
        let Some((at, cmd)) = next else { break };
        out.push_str(&rest[..at]);
        let tail = &rest[at + cmd.len()..];
        match braced(tail) {
            Some((key, end)) if !key.trim().is_empty() => {
                let label = label_of(key);
                if cmd == "\\eqref" {
                    out.push_str(&format!("(-@{label})"));
                } else {
                    out.push_str(&format!("-@{label}"));
                }
                rest = &tail[end..];
            }
            _ => {
                out.push_str(cmd);
                rest = tail;
            }
        }
    }
    out.push_str(rest);
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_and_tags_leave_the_formula_and_name_its_number() {
        let n = numbering(r"E = mc^2 \tag{2} \label{eqn:energy}");
        assert_eq!(n.tex, "E = mc^2  ");
        assert_eq!(n.label.as_deref(), Some("eq:eqn:energy"));
        let n = numbering(r"a \tag*{A.1}");
        assert_eq!(n.label.as_deref(), Some("eq:tag-A.1"));
        let n = numbering(r"\begin{align} x &= 1 \nonumber \\ y &= 2 \notag \end{align}");
        assert_eq!(n.tex, r"\begin{align} x &= 1  \\ y &= 2  \end{align}");
        assert_eq!(n.label, None);
        let n = numbering(r"\frac{a}{b} \label{my key}");
        assert_eq!(
            (n.tex.as_str(), n.label.as_deref()),
            (r"\frac{a}{b} ", Some("eq:my-key"))
        );
        assert_eq!(numbering(r"\label{x").tex, r"\label{x");
        assert_eq!(numbering(r"\{ é \} \\").tex, r"\{ é \} \\");
    }

    #[test]
    fn references_become_stoas() {
        assert_eq!(
            refs_in_text(r"by \eqref{eqn:energy} and \ref{b}, not \ref{}."),
            r"by (-@eq:eqn:energy) and -@eq:b, not \ref{}."
        );
        assert_eq!(lone_reference(r" \eqref{x} ").as_deref(), Some("(-@eq:x)"));
        assert_eq!(lone_reference(r"x + \eqref{x}").as_deref(), None);
        assert_eq!(lone_reference(r"x^2"), None);
    }
}
