//! Watches the books, themes and plugin folders for `stoa watch`: file-system events filtered and
//! debounced into one batch per burst of saves, and which output files a rebuild changed.

mod debounce;
mod filter;
mod outputs;
mod watcher;

pub use debounce::{Batch, Debouncer};
pub use filter::{Filter, Relevance, is_scratch_name, relevance};
pub use outputs::OutputIndex;
pub use watcher::{WatchConfig, WatchError, Watcher};
