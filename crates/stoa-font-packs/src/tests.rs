use super::*;

/// A pack of two small files, pinned to `contents`.
fn pack(contents: &[(&str, &[u8])]) -> Pack {
    Pack {
        name: "tiny".into(),
        version: "1.0".into(),
        summary: "for tests".into(),
        license: "OFL".into(),
        source: "here".into(),
        style: "serif".into(),
        files: contents
            .iter()
            .map(|(name, bytes)| PackFile {
                name: (*name).into(),
                url: format!("http://127.0.0.1:9/{name}"),
                size: bytes.len() as u64,
                sha256: hex(&Sha256::digest(bytes)),
            })
            .collect(),
    }
}

fn entries(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .map(|d| {
            d.flatten()
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    names
}

#[test]
fn the_catalog_pins_every_file() {
    let packs = parse_catalog(CATALOG).unwrap();
    let names: Vec<&str> = packs.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names, ["noto-serif-cjk", "noto-sans-cjk"]);
    for pack in &packs {
        assert!(!pack.files.is_empty());
        for file in &pack.files {
            // An address pinned to a commit, never to a branch.
            assert!(file.url.starts_with("https://"), "{}", file.url);
            assert!(
                file.url
                    .split('/')
                    .any(|p| p.len() == 40 && p.bytes().all(|b| b.is_ascii_hexdigit())),
                "{} is not pinned to a commit",
                file.url
            );
            assert!(file.url.ends_with(&file.name));
            assert!(file.size > 1_000_000);
        }
    }
    assert_eq!(packs[0].folder_name(), "noto-serif-cjk-2.001");
    assert_eq!(packs[0].size(), 26_297_400 + 27_290_960);
}

#[test]
fn a_catalog_with_a_path_or_no_checksum_is_refused() {
    let entry = |name: &str, sha: &str| {
        format!(
            "[[pack]]\nname = \"p\"\nversion = \"1\"\nsummary = \"s\"\nlicense = \"l\"\n\
             source = \"s\"\nstyle = \"serif\"\n[[pack.file]]\nname = \"{name}\"\n\
             url = \"https://x/{name}\"\nsize = 1\nsha256 = \"{sha}\"\n"
        )
    };
    let good = "a".repeat(64);
    assert!(parse_catalog(&entry("f.ttc", &good)).is_ok());
    assert!(
        parse_catalog(&entry("../f.ttc", &good))
            .unwrap_err()
            .contains("plain file name")
    );
    assert!(parse_catalog(&entry(".f", &good)).is_err());
    assert!(
        parse_catalog(&entry("f.ttc", "abc"))
            .unwrap_err()
            .contains("SHA-256")
    );
    assert!(parse_catalog("[[pack]]\nname = 1").is_err());
}

#[test]
fn a_pack_is_installed_from_a_folder_and_found_again() {
    let files: [(&str, &[u8]); 2] = [("a.ttf", b"first face"), ("b.ttf", b"second")];
    let pack = pack(&files);
    let from = tempfile::tempdir().unwrap();
    for (name, bytes) in files {
        std::fs::write(from.path().join(name), bytes).unwrap();
    }
    let root = tempfile::tempdir().unwrap();
    assert_eq!(installed_in(root.path(), &pack), None);
    let mut told = Vec::new();
    let done = add(
        root.path(),
        &pack,
        &Source::Folder(from.path().into()),
        &mut |f| told.push(f.name.clone()),
    )
    .unwrap();
    assert_eq!(told, ["a.ttf", "b.ttf"]);
    assert_eq!(done.files[0], root.path().join("tiny-1.0/a.ttf"));
    assert_eq!(std::fs::read(&done.files[1]).unwrap(), b"second");
    assert_eq!(entries(root.path()), ["tiny-1.0"]);
    assert_eq!(installed_in(root.path(), &pack), Some(done));
    // A file cut short is not a pack.
    std::fs::write(root.path().join("tiny-1.0/b.ttf"), b"sec").unwrap();
    assert_eq!(installed_in(root.path(), &pack), None);
    assert!(remove(root.path(), &pack).unwrap());
    assert!(!remove(root.path(), &pack).unwrap());
    assert!(entries(root.path()).is_empty());
}

#[test]
fn a_wrong_or_missing_file_installs_nothing() {
    let pack = pack(&[("a.ttf", b"first face"), ("b.ttf", b"second")]);
    let from = tempfile::tempdir().unwrap();
    std::fs::write(from.path().join("a.ttf"), b"first face").unwrap();
    std::fs::write(from.path().join("b.ttf"), b"SECOND").unwrap();
    let root = tempfile::tempdir().unwrap();
    let source = Source::Folder(from.path().into());
    let error = add(root.path(), &pack, &source, &mut |_| {}).unwrap_err();
    let said = error.to_string();
    assert!(matches!(error, PackError::Mismatch { .. }), "{said}");
    assert!(
        said.contains("`b.ttf`") && said.contains("SHA-256"),
        "{said}"
    );
    assert!(said.contains("nothing was installed"), "{said}");
    assert!(
        entries(root.path()).is_empty(),
        "{:?}",
        entries(root.path())
    );
    // Longer than pinned: told by size.
    std::fs::write(from.path().join("b.ttf"), b"second and more").unwrap();
    let said = add(root.path(), &pack, &source, &mut |_| {})
        .unwrap_err()
        .to_string();
    assert!(said.contains("7 bytes, not 6"), "{said}");
    std::fs::remove_file(from.path().join("b.ttf")).unwrap();
    let error = add(root.path(), &pack, &source, &mut |_| {}).unwrap_err();
    assert!(matches!(error, PackError::Io { .. }), "{error}");
    assert!(entries(root.path()).is_empty());
}

#[test]
fn an_unknown_pack_names_the_known_ones() {
    let packs = parse_catalog(CATALOG).unwrap();
    let said = find(&packs, "noto-cjk-xx").unwrap_err().to_string();
    assert_eq!(
        said,
        "no font pack is called `noto-cjk-xx`; the packs are: noto-serif-cjk, noto-sans-cjk"
    );
    assert_eq!(find(&packs, "noto-sans-cjk").unwrap().style, "sans");
}

#[test]
fn a_download_a_killed_process_left_is_cleared() {
    let files: [(&str, &[u8]); 1] = [("a.ttf", b"face")];
    let pack = pack(&files);
    let from = tempfile::tempdir().unwrap();
    std::fs::write(from.path().join("a.ttf"), b"face").unwrap();
    let root = tempfile::tempdir().unwrap();
    // No process has this number (Linux's pid_max is at most 2^22).
    let abandoned = root.path().join(".partial-tiny-1.0-99999999");
    std::fs::create_dir(&abandoned).unwrap();
    std::fs::write(abandoned.join("a.ttf"), b"fa").unwrap();
    let source = Source::Folder(from.path().into());
    add(root.path(), &pack, &source, &mut |_| {}).unwrap();
    let left = entries(root.path());
    if Path::new("/proc/self").exists() {
        assert_eq!(left, ["tiny-1.0"]);
    } else {
        assert!(left.contains(&"tiny-1.0".to_string()), "{left:?}");
    }
}
