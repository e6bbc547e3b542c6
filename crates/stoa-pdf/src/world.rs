//! Our Typst `World`: a generated main file, the theme folder under `/theme/`,
//! the book's images under `/assets/`, embedded and theme fonts, a fixed date.

use std::collections::HashMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

use typst::diag::{FileError, FileResult, PackageError};
use typst::foundations::{Bytes, Datetime, Duration};
use typst::syntax::{FileId, RootedPath, Source, VirtualPath, VirtualRoot};
use typst::text::{Font, FontBook};
use typst::utils::LazyHash;
use typst::{Library, LibraryExt, World};

use stoa_render::Theme;

use crate::fonts;
use crate::stand_in::StandIns;

/// The virtual path of the generated main file.
pub(crate) const MAIN_PATH: &str = "/main.typ";
/// The virtual folder that holds the theme.
const THEME_PREFIX: &str = "/theme/";

/// Fonts and their book, shared by every compilation with the same theme.
pub(crate) struct FontSet {
    book: LazyHash<FontBook>,
    fonts: Vec<Slot>,
}

/// One font of a set: a theme's, read already, or an embedded one (its
/// index in [`fonts::faces`]), inflated when a document first uses it.
enum Slot {
    Theme(Font),
    Embedded(usize),
    /// A face installed on the machine ([`crate::system_fonts::faces`]).
    System(usize),
    /// A CJK face: a font pack's or the machine's ([`crate::cjk`]).
    Cjk(&'static crate::system_fonts::SystemFace),
}

impl FontSet {
    /// What each font of the set holds.
    pub(crate) fn book(&self) -> &FontBook {
        &self.book
    }

    /// Font `index` of the book.
    fn font(&self, index: usize) -> Option<Font> {
        match self.fonts.get(index)? {
            Slot::Theme(font) => Some(font.clone()),
            Slot::Embedded(i) => fonts::font(*i),
            Slot::System(i) => crate::system_fonts::faces().get(*i)?.font(),
            Slot::Cjk(face) => face.font(),
        }
    }
}

/// The embedded fonts plus those in `<theme>/fonts/` (and, when `system`,
/// those installed on the machine, after them: a book's own faces come
/// first), cached per theme folder because the driver renders many books
/// with the same theme in parallel. A built-in theme ships no fonts: it
/// uses the embedded ones.
pub(crate) fn font_set(theme: &Theme, choice: &FontChoice) -> Arc<FontSet> {
    type Key = (Option<PathBuf>, FontChoice);
    static SETS: OnceLock<Mutex<HashMap<Key, Arc<FontSet>>>> = OnceLock::new();
    let sets = SETS.get_or_init(Default::default);
    let key = (theme.dir().map(Path::to_path_buf), choice.clone());
    if let Some(set) = lock(sets).get(&key) {
        return set.clone();
    }
    // Built outside the lock: two threads may both build it, which is
    // harmless, while holding the lock would serialize unrelated themes.
    let mut own = match theme.dir() {
        Some(dir) => theme_fonts(&dir.join("fonts")),
        None => Vec::new(),
    };
    if let Some(folder) = &choice.folder {
        own.extend(theme_fonts(folder));
    }
    let installed = match choice.system {
        true => crate::system_fonts::faces(),
        false => &[],
    };
    let cjk = match &choice.cjk {
        Some(crate::cjk::Cjk::Pack(files)) => crate::cjk::pack_faces(files),
        // The project's faces are in the set already, as its own.
        Some(crate::cjk::Cjk::Own(_)) => Vec::new(),
        // With `[fonts] system`, the machine's faces are in the set already.
        Some(crate::cjk::Cjk::System) if !choice.system => crate::cjk::system_cjk(),
        Some(crate::cjk::Cjk::System) => Vec::new(),
        None => Vec::new(),
    };
    let infos = own
        .iter()
        .map(|font| font.info().clone())
        .chain(fonts::faces().iter().map(|face| face.info().clone()))
        .chain(installed.iter().map(|face| face.info().clone()))
        .chain(cjk.iter().map(|face| face.info().clone()));
    let book = LazyHash::new(FontBook::from_infos(infos));
    let fonts = own
        .into_iter()
        .map(Slot::Theme)
        .chain((0..fonts::faces().len()).map(Slot::Embedded))
        .chain((0..installed.len()).map(Slot::System))
        .chain(cjk.into_iter().map(Slot::Cjk))
        .collect();
    let set = Arc::new(FontSet { book, fonts });
    lock(sets).entry(key).or_insert(set).clone()
}

/// Which fonts a book adds to the embedded ones and its theme's, from its
/// `[fonts]` settings and its project's `fonts/` folder.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub(crate) struct FontChoice {
    /// The machine's installed fonts too (`[fonts] system = true`).
    pub(crate) system: bool,
    /// The project's `fonts/` folder.
    pub(crate) folder: Option<PathBuf>,
    /// The faces for the book's Chinese, Japanese or Korean text.
    pub(crate) cjk: Option<crate::cjk::Cjk>,
}

impl FontChoice {
    /// The choice a book's print settings make.
    pub(crate) fn of(print: &stoa_doc::Print) -> Self {
        FontChoice {
            system: print.system_fonts,
            folder: print.fonts_folder.as_ref().map(PathBuf::from),
            cjk: None,
        }
    }

    /// The choice for `book` with `theme`: its print settings', and the
    /// CJK faces its text needs ([`crate::cjk::choose`]), with the warning
    /// that they are the machine's; an error when it needs some and none
    /// can be had.
    pub(crate) fn for_book(
        book: &stoa_doc::Book,
        theme: &Theme,
    ) -> Result<(Self, Option<stoa_doc::Diagnostic>), stoa_doc::Diagnostic> {
        let mut choice = FontChoice::of(&book.print);
        let own = font_set(theme, &choice);
        let own_has = |c: char| {
            (0..)
                .map_while(|i| own.book().info(i))
                .any(|info| info.coverage.contains(c as u32))
        };
        let (cjk, warning) = crate::cjk::choose(book, &own_has)?;
        choice.cjk = cjk;
        Ok((choice, warning))
    }
}

/// The fonts of a folder (the theme's, the project's), in file-name order so that the font book (and so
/// the output) does not depend on the order the file system lists them.
fn theme_fonts(dir: &Path) -> Vec<Font> {
    let Ok(entries) = fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut paths: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| fonts::is_font_file(p))
        .collect();
    paths.sort();
    paths
        .iter()
        .filter_map(|p| fs::read(p).ok())
        .flat_map(|data| Font::iter(Bytes::new(data)))
        .collect()
}

/// The standard library, the same for every book.
fn library() -> &'static LazyHash<Library> {
    static LIBRARY: OnceLock<LazyHash<Library>> = OnceLock::new();
    LIBRARY.get_or_init(|| LazyHash::new(Library::default()))
}

/// How many compilations a memoized Typst result survives unused in a warm
/// session (`stoa watch`): enough for its next edit of the same editions
/// to find theirs (a build compiles only its stale editions), few enough
/// that a build of hundreds of editions keeps the last few editions'
/// results, not all of them (without it, a build's memory grew by about
/// 15 MiB per edition). A single build keeps none: an edition's layout is
/// of no use to the next edition, and a book of 2,000 pages held 250 MiB
/// of it through the next one's layout (scripts/bench-images).
const MEMO_AGE_COMPILES: usize = 8;

/// Ages Typst's memoized results by one compilation and forgets those
/// unused for [`MEMO_AGE_COMPILES`] (all of them, in a single build);
/// called after each compilation. Safe while other threads compile: a
/// result forgotten is computed again.
pub(crate) fn forget_old_compilations() {
    let age = match stoa_render::is_warm() {
        true => MEMO_AGE_COMPILES,
        false => 0,
    };
    typst::comemo::evict(age);
}

/// Locks a mutex, carrying on after another thread panicked while holding
/// it: the caches it guards are only ever added to, never left half-written.
pub(crate) fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// One compilation's world.
pub(crate) struct StoaWorld {
    main: Source,
    /// The theme; a folder one canonical, so that `/theme/../..` cannot leave it.
    theme: Theme,
    /// Virtual `/assets/...` path → checked file on disk.
    assets: HashMap<String, PathBuf>,
    fonts: Arc<FontSet>,
    /// The fonts `fonts` adds to the theme's and the embedded ones.
    choice: FontChoice,
    today: Option<Datetime>,
    /// Raster images are given wrapped in an SVG (see [`StoaWorld::with_wrapped_images`]).
    wrap_images: bool,
    /// Images given as stand-ins (see `crate::stand_in`).
    stand_ins: Option<Arc<StandIns>>,
    files: Mutex<HashMap<FileId, FileResult<Bytes>>>,
    sources: Mutex<HashMap<FileId, FileResult<Source>>>,
}

impl StoaWorld {
    /// A world whose main file is `main`; `assets` maps virtual paths to files
    /// already checked to lie inside the allowed roots.
    pub(crate) fn new(
        main: String,
        theme: Theme,
        assets: HashMap<String, PathBuf>,
        today: Option<Datetime>,
    ) -> Self {
        let fonts = font_set(&theme, &FontChoice::default());
        let id = main_id();
        StoaWorld {
            main: Source::new(id, main),
            theme,
            assets,
            fonts,
            choice: FontChoice::default(),
            today,
            wrap_images: false,
            stand_ins: None,
            files: Mutex::default(),
            sources: Mutex::default(),
        }
    }

    /// The same world with the fonts a book adds (its project's `fonts/`,
    /// the machine's with `[fonts] system = true`).
    pub(crate) fn with_fonts(mut self, choice: FontChoice) -> Self {
        if choice != FontChoice::default() {
            self.fonts = font_set(&self.theme, &choice);
            self.choice = choice;
        }
        self
    }

    /// The same world giving each JPEG and PNG image wrapped in an SVG of
    /// its natural size (stoa_image::in_svg): Typst keeps an SVG's image
    /// encoded, where it would keep a raster image's decoded pixels for
    /// the whole document, and writes a JPEG into the PDF as it is. Off
    /// for a check, whose preflight measures each raster image's density.
    pub(crate) fn with_wrapped_images(mut self, wrap: bool) -> Self {
        self.wrap_images = wrap;
        self
    }

    /// The same world giving each of the book's JPEG and PNG images as a
    /// stand-in the PDF replaces with the image as it is written (see
    /// `crate::stand_in`): Typst holds none of their bytes.
    pub(crate) fn with_stand_ins(mut self) -> Self {
        self.stand_ins = Some(StandIns::new(&self.assets));
        self
    }

    /// The stand-ins this world gives, for the PDF's writing.
    pub(crate) fn stand_ins(&self) -> Option<Arc<StandIns>> {
        self.stand_ins.clone()
    }

    /// What, besides the files it reads, decides what this world lays out,
    /// with `extra` (the cover's size): its main file, theme, images and
    /// date. The fonts are the process's (see [`font_set`]).
    pub(crate) fn identity(&self, extra: u32) -> u128 {
        let mut assets: Vec<(&String, &PathBuf)> = self.assets.iter().collect();
        assets.sort();
        let fonts = &self.choice;
        typst::utils::hash128(&(
            self.main.text(),
            &self.theme,
            assets,
            self.today,
            extra,
            fonts,
            self.wrap_images,
            self.stand_ins.is_some(),
        ))
    }

    /// [`StoaWorld::identity`] with what the images hold: everything but
    /// the theme's files that decides what this world lays out, known
    /// before laying anything out. `None` when an image cannot be read.
    pub(crate) fn content_key(&self, extra: u32) -> Option<u128> {
        // Each file read and hashed alone: never every image at once.
        let mut images: Vec<(&String, u128)> = Vec::new();
        let mut assets: Vec<(&String, &PathBuf)> = self.assets.iter().collect();
        assets.sort();
        for (vpath, path) in assets {
            images.push((vpath, typst::utils::hash128(&std::fs::read(path).ok()?)));
        }
        Some(typst::utils::hash128(&(self.identity(extra), images)))
    }

    /// Every file read so far, with a hash of what reading it gave (an
    /// error too: a file missing then is a dependency as well).
    pub(crate) fn files_read(&self) -> Vec<(FileId, u128)> {
        lock(&self.files)
            .iter()
            .map(|(id, result)| (*id, typst::utils::hash128(result)))
            .collect()
    }

    /// A hash of what reading `id` gives now (see [`StoaWorld::files_read`]).
    pub(crate) fn file_hash(&self, id: FileId) -> u128 {
        typst::utils::hash128(&self.read(id))
    }

    /// A file of a built-in theme (`/theme/<file>`), served from stoa's
    /// binary, also where a folder named after a built-in theme leaves it
    /// out; `None` for any other file.
    fn builtin_theme_file(&self, id: FileId) -> Option<FileResult<Bytes>> {
        if !matches!(id.root(), VirtualRoot::Project) {
            return None;
        }
        let vpath = id.vpath().get_with_slash();
        let rest = vpath.strip_prefix(THEME_PREFIX)?;
        if !self.theme.is_builtin() {
            // Only the built-in theme's own file names have a fallback.
            let fallback = self.theme.fallback(rest)?;
            return Some(Ok(Bytes::new(fallback)));
        }
        Some(match self.theme.read(rest) {
            Ok(bytes) => Ok(Bytes::new(bytes.into_owned())),
            Err(_) => Err(FileError::NotFound(PathBuf::from(vpath))),
        })
    }

    /// How to name a file that is not on disk in a message: a built-in
    /// theme's file by the theme's name, anything else by its virtual path.
    pub(crate) fn describe(&self, id: FileId) -> String {
        let vpath = id.vpath().get_with_slash();
        match vpath.strip_prefix(THEME_PREFIX) {
            Some(rest) if self.theme.is_builtin() => self.theme.describe(rest),
            _ => vpath.to_owned(),
        }
    }

    /// The file on disk behind a virtual path, if the world serves it.
    pub(crate) fn real_path(&self, id: FileId) -> FileResult<PathBuf> {
        let VirtualRoot::Project = id.root() else {
            return Err(package_error(id));
        };
        let vpath = id.vpath().get_with_slash();
        if let Some(path) = self.assets.get(vpath) {
            return Ok(path.clone());
        }
        let Some(rest) = vpath.strip_prefix(THEME_PREFIX) else {
            return Err(FileError::NotFound(PathBuf::from(vpath)));
        };
        // A built-in theme's files are in stoa, not on disk (see `read`).
        let Some(theme_dir) = self.theme.dir() else {
            return Err(FileError::NotFound(PathBuf::from(vpath)));
        };
        let path = theme_dir.join(rest);
        // Canonicalize so that a symbolic link inside the theme cannot lead out.
        let real = path
            .canonicalize()
            .map_err(|e| FileError::from_io(e, &path))?;
        if real.starts_with(theme_dir) {
            Ok(real)
        } else {
            Err(FileError::AccessDenied)
        }
    }

    fn read(&self, id: FileId) -> FileResult<Bytes> {
        if id == self.main.id() {
            return Ok(Bytes::from_string(self.main.text().to_owned()));
        }
        let mut files = lock(&self.files);
        files
            .entry(id)
            .or_insert_with(|| {
                if let Some(bytes) = self.builtin_theme_file(id) {
                    return bytes;
                }
                let path = self.real_path(id)?;
                let vpath = id.vpath().get_with_slash();
                let is_asset = self.assets.contains_key(vpath);
                if let Some(svg) = (self.stand_ins.as_ref())
                    .filter(|_| is_asset)
                    .and_then(|s| s.svg_of_file(vpath, &path))
                {
                    return Ok(Bytes::new(svg));
                }
                let bytes = fs::read(&path).map_err(|e| FileError::from_io(e, &path))?;
                if self.wrap_images
                    && is_asset
                    && let Some(svg) = stoa_render::stoa_image::probe(&bytes)
                        .and_then(|probe| stoa_render::stoa_image::in_svg(&bytes, &probe))
                {
                    return Ok(Bytes::new(svg));
                }
                Ok(Bytes::new(bytes))
            })
            .clone()
    }
}

/// The id of the generated main file.
pub(crate) fn main_id() -> FileId {
    RootedPath::new(
        VirtualRoot::Project,
        VirtualPath::new(MAIN_PATH).expect("a valid path"),
    )
    .intern()
}

/// Packages would mean downloads, and a build must not depend on the network.
fn package_error(id: FileId) -> FileError {
    let name = match id.root() {
        VirtualRoot::Package(spec) => spec.to_string(),
        VirtualRoot::Project => String::new(),
    };
    FileError::Package(PackageError::Other(Some(
        format!(
            "stoa does not load Typst packages ({name}); ship the code in the theme folder instead"
        )
        .into(),
    )))
}

impl World for StoaWorld {
    fn library(&self) -> &LazyHash<Library> {
        library()
    }

    fn book(&self) -> &LazyHash<FontBook> {
        &self.fonts.book
    }

    fn main(&self) -> FileId {
        self.main.id()
    }

    fn source(&self, id: FileId) -> FileResult<Source> {
        if id == self.main.id() {
            return Ok(self.main.clone());
        }
        let bytes = self.read(id)?;
        let mut sources = lock(&self.sources);
        sources
            .entry(id)
            .or_insert_with(|| {
                let text = std::str::from_utf8(&bytes).map_err(|_| FileError::InvalidUtf8)?;
                Ok(Source::new(id, text.to_owned()))
            })
            .clone()
    }

    fn file(&self, id: FileId) -> FileResult<Bytes> {
        self.read(id)
    }

    fn font(&self, index: usize) -> Option<Font> {
        self.fonts.font(index)
    }

    /// The book's date, whatever the clock says, so that output is reproducible.
    fn today(&self, _offset: Option<Duration>) -> Option<Datetime> {
        self.today
    }
}
