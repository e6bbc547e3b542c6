//! Which blocks of a source changed since a translation was marked, and
//! which block of the translation translates each: posts are translated
//! paragraph by paragraph and dialogues turn by turn, so block `i` of the
//! source as it was marked is block `i` of the translation, as long as the
//! two have the same shape. When they do not (a translator merged two
//! paragraphs), alignment says so instead of guessing.

use crate::text::{Block, Kind};

/// One step from the source as marked to the source as it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Edit {
    /// Block `old` is unchanged, now block `new`.
    Same {
        /// Index in the marked source.
        old: usize,
        /// Index in the current source.
        new: usize,
    },
    /// Block `old` was rewritten as block `new`.
    Changed {
        /// Index in the marked source.
        old: usize,
        /// Index in the current source.
        new: usize,
    },
    /// Block `new` is new.
    Added {
        /// Index in the current source.
        new: usize,
    },
    /// Block `old` is gone.
    Removed {
        /// Index in the marked source.
        old: usize,
    },
}

/// Past this many cells the longest common subsequence is not computed and
/// blocks are compared by position: a post is never that long, and the
/// limit keeps a pathological file from taking the memory.
const MAX_CELLS: usize = 4_000_000;

/// The edits from `old` to `new` (block digests), in order: the longest run
/// of unchanged blocks kept, and a removal beside an addition read as one
/// block rewritten.
pub fn diff(old: &[&str], new: &[&str]) -> Vec<Edit> {
    let raw = if old.len().saturating_mul(new.len()) <= MAX_CELLS {
        lcs(old, new)
    } else {
        by_position(old, new)
    };
    pair_up(raw)
}

/// Same / Removed / Added steps by the longest common subsequence.
fn lcs(old: &[&str], new: &[&str]) -> Vec<Edit> {
    let (n, m) = (old.len(), new.len());
    let width = m + 1;
    let mut table = vec![0u32; (n + 1) * width];
    for i in (0..n).rev() {
        for j in (0..m).rev() {
            table[i * width + j] = if old[i] == new[j] {
                table[(i + 1) * width + j + 1] + 1
            } else {
                table[(i + 1) * width + j].max(table[i * width + j + 1])
            };
        }
    }
    let (mut i, mut j) = (0, 0);
    let mut out = Vec::with_capacity(n.max(m));
    while i < n && j < m {
        if old[i] == new[j] {
            out.push(Edit::Same { old: i, new: j });
            i += 1;
            j += 1;
        } else if table[(i + 1) * width + j] >= table[i * width + j + 1] {
            out.push(Edit::Removed { old: i });
            i += 1;
        } else {
            out.push(Edit::Added { new: j });
            j += 1;
        }
    }
    out.extend((i..n).map(|old| Edit::Removed { old }));
    out.extend((j..m).map(|new| Edit::Added { new }));
    out
}

fn by_position(old: &[&str], new: &[&str]) -> Vec<Edit> {
    let mut out: Vec<Edit> = old
        .iter()
        .zip(new)
        .enumerate()
        .map(|(i, (a, b))| {
            if a == b {
                Edit::Same { old: i, new: i }
            } else {
                Edit::Changed { old: i, new: i }
            }
        })
        .collect();
    let common = old.len().min(new.len());
    out.extend((common..old.len()).map(|old| Edit::Removed { old }));
    out.extend((common..new.len()).map(|new| Edit::Added { new }));
    out
}

/// Between two unchanged blocks, the k-th removed block and the k-th added
/// one are one block rewritten.
fn pair_up(raw: Vec<Edit>) -> Vec<Edit> {
    let mut out = Vec::with_capacity(raw.len());
    let mut removed = Vec::new();
    let mut added = Vec::new();
    let flush = |out: &mut Vec<Edit>, removed: &mut Vec<usize>, added: &mut Vec<usize>| {
        let pairs = removed.len().min(added.len());
        for k in 0..pairs {
            out.push(Edit::Changed {
                old: removed[k],
                new: added[k],
            });
        }
        out.extend(removed[pairs..].iter().map(|&old| Edit::Removed { old }));
        out.extend(added[pairs..].iter().map(|&new| Edit::Added { new }));
        removed.clear();
        added.clear();
    };
    for edit in raw {
        match edit {
            Edit::Removed { old } => removed.push(old),
            Edit::Added { new } => added.push(new),
            other => {
                flush(&mut out, &mut removed, &mut added);
                out.push(other);
            }
        }
    }
    flush(&mut out, &mut removed, &mut added);
    out
}

/// Why block `i` of the marked source cannot be taken as block `i` of the
/// translation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Divergence {
    /// Blocks of the source when the translation was marked.
    pub source_blocks: usize,
    /// Blocks of the translation.
    pub translation_blocks: usize,
    /// The first block (index in the translation) whose kind differs from
    /// the source's, if one does: where the shapes part.
    pub first_difference: Option<usize>,
}

/// Checks that the translation has the shape of the source as it was
/// marked: as many blocks, and the same kind (a heading, the same
/// speaker's turn) where the source did not change (`current` is the source
/// now; `edits` from [`diff`]). `Ok` means
/// block `i` of the marked source is block `i` of the translation.
pub fn check_shape(
    marked_blocks: usize,
    current: &[Block],
    edits: &[Edit],
    translation: &[Block],
) -> Result<(), Divergence> {
    let mismatch = edits.iter().find_map(|edit| match *edit {
        Edit::Same { old, new } => translation
            .get(old)
            .filter(|t| !same_kind(t.kind, current[new].kind))
            .map(|_| old),
        _ => None,
    });
    if marked_blocks == translation.len() && mismatch.is_none() {
        return Ok(());
    }
    // Where the shapes part, by position against the source as it is: a
    // hint for the reader, not an alignment.
    let first_difference = mismatch.or_else(|| {
        translation
            .iter()
            .zip(current)
            .position(|(t, s)| !same_kind(t.kind, s.kind))
            .or(Some(translation.len().min(current.len())))
    });
    Err(Divergence {
        source_blocks: marked_blocks,
        translation_blocks: translation.len(),
        first_difference,
    })
}

/// Whether a translated block has the kind of its source block. Kept as a
/// function: the one place to relax it (say, for a translator who turns a
/// list into a paragraph).
fn same_kind(a: Kind, b: Kind) -> bool {
    a == b
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::body_blocks;

    #[test]
    fn a_rewritten_block_is_changed_in_place() {
        let edits = diff(&["a", "b", "c"], &["a", "B", "c"]);
        assert_eq!(
            edits,
            [
                Edit::Same { old: 0, new: 0 },
                Edit::Changed { old: 1, new: 1 },
                Edit::Same { old: 2, new: 2 },
            ]
        );
    }

    #[test]
    fn insertions_and_removals_keep_the_rest_aligned() {
        let edits = diff(&["a", "b", "c"], &["a", "x", "b"]);
        assert_eq!(
            edits,
            [
                Edit::Same { old: 0, new: 0 },
                Edit::Added { new: 1 },
                Edit::Same { old: 1, new: 2 },
                Edit::Removed { old: 2 },
            ]
        );
    }

    #[test]
    fn long_inputs_compare_by_position() {
        let old: Vec<&str> = vec!["a"; 3000];
        let mut new = old.clone();
        new[7] = "b";
        new.push("c");
        let edits = diff(&old, &new);
        assert_eq!(edits[7], Edit::Changed { old: 7, new: 7 });
        assert_eq!(edits.last(), Some(&Edit::Added { new: 3000 }));
    }

    #[test]
    fn same_shape_aligns_turn_by_turn() {
        let source = body_blocks("SÓCRATES: Olá.\n\nGLAUCO: Oi.\n", 1);
        let translation = body_blocks("SOCRATES: Hello.\n\nGLAUCON: Hi.\n", 1);
        let edits = diff(&["x", "y"], &["x", "z"]);
        assert_eq!(check_shape(2, &source, &edits, &translation), Ok(()));
    }

    #[test]
    fn merged_turns_diverge() {
        let source = body_blocks("SÓCRATES: Olá.\n\nGLAUCO: Oi.\n\nSÓCRATES: E aí?\n", 1);
        // The translator merged Glaucon's turn into Socrates' first.
        let translation = body_blocks("SOCRATES: Hello. Hi.\n\nSOCRATES: So?\n", 1);
        let edits = diff(&["x", "y", "z"], &["x", "y", "w"]);
        let divergence = check_shape(3, &source, &edits, &translation).unwrap_err();
        assert_eq!(divergence.source_blocks, 3);
        assert_eq!(divergence.translation_blocks, 2);
        assert_eq!(divergence.first_difference, Some(1));
    }
}
