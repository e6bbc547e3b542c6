/*
 * stoa_plugin.h: the C ABI of stoa plugins, version 1.
 *
 * A stoa plugin is a shared library (libstoa_plugin_<name>.so on Linux,
 * libstoa_plugin_<name>.dylib on macOS, stoa_plugin_<name>.dll on Windows)
 * that exports one function:
 *
 *     const StoaPluginV1 *stoa_plugin_v1(void);
 *
 * It returns a descriptor that must stay valid, unchanged, for as long as the
 * library is loaded (stoa never unloads a plugin during a build). It may be
 * called more than once and from any thread; return the same pointer each time.
 * Returning NULL tells stoa the plugin is broken.
 *
 * Everything else crosses the boundary as UTF-8 JSON in byte buffers (not
 * NUL-terminated). The shapes are below and in docs/plugins.md; the tree is
 * the stoa document tree, version STOA_TREE_MAJOR.STOA_TREE_MINOR.
 *
 * ---------------------------------------------------------------- versions
 * The tree version has two parts. The descriptor's tree_version packs them
 * (STOA_TREE_VERSION): the major in the low 16 bits, the minor above, so
 * that a plugin built before minors existed, which says 1, reads as 1.0.
 *   - A minor version only adds: a field, a role, a block or inline kind, a
 *     format. stoa loads a plugin of the same major and an older or equal
 *     minor, and refuses a newer minor (upgrade stoa for such a plugin).
 *     For a plugin of an older minor, stoa lowers the tree before each call:
 *     what that minor lacks is moved where every version keeps it ("attrs"
 *     of a div or span, "plugin_data" of a chapter, under "stoa:" keys, e.g.
 *     "stoa:role"), and raised back from the answer. Such a plugin must pass
 *     fields and keys it does not know through unchanged. It is only asked
 *     for styles of the formats its minor knows.
 *   - A major version changes the meaning of what exists. stoa refuses a
 *     plugin of another major, and a plugin should refuse (with
 *     STOA_STATUS_BAD_INPUT) an input whose "tree_version" (the major) is not
 *     its own. Rebuild the plugin against the new header.
 *   - A format a plugin does not know is not an error: its styles hook
 *     answers STOA_STATUS_OK with an empty "code".
 * Tree 1.1 added "role" to divs, spans and chapters, "notes" to chapters,
 * and the "html" format.
 *
 * ---------------------------------------------------------------- ownership
 * Each buffer is freed by the side that allocated it:
 *   - the input of a hook belongs to stoa; it is valid only during the call
 *     and must not be written, kept or freed by the plugin;
 *   - the output of a hook belongs to the plugin; stoa reads it, then hands
 *     it back exactly once to the descriptor's free_buffer. An output of
 *     length 0 may have ptr == NULL; free_buffer is then still allowed.
 *
 * ---------------------------------------------------------------- threading
 * Hooks are called from several threads at once: transform for different
 * chapters of a book in parallel, and every hook for different books (and
 * languages) in parallel. A plugin must be thread-safe: no unsynchronised
 * global mutable state. Calls never share buffers.
 *
 * ---------------------------------------------------------------- errors
 * A hook returns a status (STOA_STATUS_*). On STOA_STATUS_OK the output holds
 * the hook's result as below. On any other status the output is empty or
 * holds {"diagnostics": [ <diagnostic>, ... ]} saying why; stoa reports an
 * error naming the plugin, its file and the chapter, and does not build the
 * book. A hook must never unwind (C++ exceptions, Rust panics) across the
 * boundary, and must not call exit() or abort() on bad input.
 *
 * A <diagnostic> is
 *     {"severity": "warning" | "error", "message": "...",
 *      "hint": "what to do" (optional), "chapter": "<slug>" (optional)}
 * An error diagnostic in an OK output also fails the book; warnings are shown
 * and the build goes on. stoa adds the plugin's name and the chapter's file.
 *
 * ---------------------------------------------------------------- messages
 * Every input object carries "tree_version" (the tree's major: a plugin
 * should return STOA_STATUS_BAD_INPUT for a major it does not know),
 * "tree_minor" (what stoa writes; the tree a plugin gets is lowered to the
 * plugin's own minor), "config" (the
 * plugin's [plugins.<name>] table of book.toml, as a JSON object, {} when
 * empty) and "lang" (the BCP 47 tag of the edition, e.g. "pt-BR").
 * Objects may gain fields in later stoa versions: ignore unknown fields.
 *
 * transform, once per chapter, in parallel:
 *   in:  {"tree_version": 1, "tree_minor": 1, "config": {...}, "lang": "pt-BR",
 *         "book_id": "essays", "chapter": <chapter>}
 *   out: {"chapter": <chapter>, "diagnostics": [...]}
 *        Diagnostics without "chapter" concern this chapter.
 *
 * finish, once per book and language, after every transform:
 *   in:  {"tree_version": 1, "tree_minor": 1, "config": {...}, "lang": "pt-BR",
 *         "book": <book>}
 *   out: {"book": <book>, "diagnostics": [...]}
 *        The plugin may change chapters and add chapters (kind "appendix" or
 *        "notes"); slugs must stay unique.
 *
 * styles, once per book, language and format:
 *   in:  {"tree_version": 1, "tree_minor": 1, "config": {...}, "lang": "pt-BR",
 *         "book_id": "essays", "format": "epub" | "pdf" | "html" | <newer>}
 *   out: {"code": "<CSS for epub and html, Typst for pdf>", "diagnostics": [...]}
 *        For a format the plugin does not know: STOA_STATUS_OK, "code": "".
 *
 * A <chapter> is
 *   {"slug": "a-post", "kind": "post" | "about" | "appendix" | "notes",
 *    "title": "...", "date": "2024-05-01" | null, "tags": [...],
 *    "summary": "..." | null, "source": "posts/a-post/en.md" | null,
 *    "role": "glossary" (optional, 1.1),
 *    "notes": {"placement": "endnotes" | "footnotes" | "notes-chapter",
 *              "numbering": "per-chapter" | "continuous"} (optional, 1.1),
 *    "plugin_data": {"<plugin name>": {...front matter table...}},
 *    "blocks": [<block>, ...]}
 * A <block> or <inline> is an object whose "type" names its kind, e.g.
 *   {"type": "paragraph", "content": [{"type": "text", "text": "Hi"}]}
 *   {"type": "div", "role": "dialogue", "class": "dialogue", "attrs": {}, "blocks": [...]}
 *   {"type": "span", "role": "speaker", "class": "speaker", "attrs": {}, "content": [...]}
 * "role" (optional, 1.1) says what a container means, for every format;
 * "class" names it for the plugin's own styles.
 * docs/plugins.md lists every type; a <book> has "chapters": [<chapter>...]
 * among its fields and must be returned with all of them.
 *
 * Trees nest deeply (lists in lists): parse JSON without a small depth limit.
 */
#ifndef STOA_PLUGIN_H
#define STOA_PLUGIN_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The ABI version of this header; the descriptor's abi_version. */
#define STOA_ABI_VERSION 1u
/* The document tree version of this header: its major (a new one breaks
 * plugins) and its minor (a new one only adds; see "versions" above). */
#define STOA_TREE_MAJOR 1u
#define STOA_TREE_MINOR 1u
/* The descriptor's tree_version: the major in the low 16 bits, the minor
 * above, so that 1 reads as 1.0. */
#define STOA_TREE_VERSION ((STOA_TREE_MINOR << 16) | STOA_TREE_MAJOR)

/* The name of the entry symbol, for dlsym(). */
#define STOA_ENTRY_SYMBOL "stoa_plugin_v1"

/* Hook status codes. */
#define STOA_STATUS_OK 0        /* output holds the result */
#define STOA_STATUS_ERROR 1     /* the plugin reports why in "diagnostics" */
#define STOA_STATUS_PANIC 2     /* internal failure (a caught panic, a bug) */
#define STOA_STATUS_BAD_INPUT 3 /* the input was unreadable or of another version */

/* A byte buffer; not NUL-terminated. */
typedef struct StoaBuffer {
    uint8_t *ptr;
    size_t len;
} StoaBuffer;

/*
 * A hook: reads input_len bytes of JSON at input, stores a buffer it
 * allocated in *output (stoa sets *output to {NULL, 0} before the call) and
 * returns a STOA_STATUS_* code.
 */
typedef int32_t (*StoaHookFn)(const uint8_t *input, size_t input_len, StoaBuffer *output);

/* Frees one output buffer of this plugin's hooks. */
typedef void (*StoaFreeBufferFn)(StoaBuffer buffer);

/*
 * The descriptor. abi_version is the first field in every ABI version, so
 * stoa reads it first and refuses versions it does not speak.
 */
typedef struct StoaPluginV1 {
    uint32_t abi_version;        /* STOA_ABI_VERSION */
    uint32_t tree_version;       /* STOA_TREE_VERSION: major | minor << 16 */
    const char *name;            /* NUL-terminated UTF-8: the <name> of [plugins.<name>] */
    const char *version;         /* NUL-terminated UTF-8, e.g. "1.0.0" */
    StoaHookFn transform;        /* NULL if not provided */
    StoaHookFn finish;           /* NULL if not provided */
    StoaHookFn styles;           /* NULL if not provided */
    StoaFreeBufferFn free_buffer; /* required */
} StoaPluginV1;

/* The entry point every plugin exports. */
#if defined(_WIN32)
__declspec(dllexport)
#else
__attribute__((visibility("default")))
#endif
const StoaPluginV1 *stoa_plugin_v1(void);

#ifdef __cplusplus
}
#endif

#endif /* STOA_PLUGIN_H */
