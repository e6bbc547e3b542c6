//! Words: folding, inflection, finding a term and the collation, from the
//! SDK (`stoa_sdk::words`), where the book's index reads them too.

pub use stoa_sdk::words::*;
