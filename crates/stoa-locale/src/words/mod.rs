//! The words of the languages added after the first nine, one file each:
//! every file is one [`Locale`](crate::Locale), appended to
//! [`LOCALES`](crate::LOCALES) in `table.rs`.

pub(crate) mod am;
pub(crate) mod ar;
pub(crate) mod bn;
pub(crate) mod el;
pub(crate) mod fa;
pub(crate) mod he;
pub(crate) mod hi;
pub(crate) mod hy;
pub(crate) mod id;
pub(crate) mod it;
pub(crate) mod ja;
pub(crate) mod ka;
pub(crate) mod km;
pub(crate) mod ko;
pub(crate) mod si;
pub(crate) mod ta;
pub(crate) mod th;
pub(crate) mod tr;
pub(crate) mod ur;
pub(crate) mod vi;
pub(crate) mod zh_hans;
pub(crate) mod zh_hant;
