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
 * and the "html" format. Tree 1.2 added the "raw" block and inline:
 *   {"type": "raw", "format": "epub" | "pdf" | "html", "payload": "<code>"}
 * (lowered for older plugins to an empty div or span of class "stoa:raw"
 * with "stoa:raw-format" and "stoa:raw-payload" in its attrs).
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
 *   in:  {"tree_version": 1, "tree_minor": 2, "config": {...}, "lang": "pt-BR",
 *         "book_id": "essays", "chapter": <chapter>}
 *   out: {"chapter": <chapter>, "diagnostics": [...]}
 *        Diagnostics without "chapter" concern this chapter.
 *
 * finish, once per book and language, after every transform:
 *   in:  {"tree_version": 1, "tree_minor": 2, "config": {...}, "lang": "pt-BR",
 *         "book": <book>}
 *   out: {"book": <book>, "diagnostics": [...]}
 *        The plugin may change chapters and add chapters (kind "appendix" or
 *        "notes"); slugs must stay unique.
 *
 * styles, once per book, language and format:
 *   in:  {"tree_version": 1, "tree_minor": 2, "config": {...}, "lang": "pt-BR",
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
#define STOA_TREE_MINOR 2u
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

/* ------------------------------------------------------------------------
 * More hooks of ABI version 1: configure and source (optional).
 *
 * They come through a second entry symbol, so that StoaPluginV1 keeps its
 * layout and plugins built before them load unchanged. A plugin that has
 * either hook exports
 *
 *     const StoaHooksV1 *stoa_plugin_hooks_v1(void);
 *
 * returning a static struct, valid while the library is loaded. "size" is
 * sizeof(StoaHooksV1) as the plugin was built: hooks added at the end in a
 * later header are read as NULL from a plugin whose size stops before them.
 * A plugin without the symbol has neither hook. Outputs are freed with the
 * descriptor's free_buffer, statuses and diagnostics are as above.
 *
 * configure, once per book and language, before any other hook:
 *   in:  {"tree_version": 1, "tree_minor": 2, "config": {...}, "lang": "pt-BR",
 *         "book_id": "essays", "labels": {...}}
 *   out: {"diagnostics": [...]}
 *        Check the settings here: an error is reported once, at the line of
 *        book.toml of the key the message names in backticks (e.g.
 *        "unknown key `wrod`"), with "did you mean" a key quoted in the
 *        message or its hint; and no post of that edition is read.
 *
 * source, once per post and language, in parallel, before it is parsed:
 *   in:  {"tree_version": 1, "tree_minor": 2, "config": {...}, "lang": "pt-BR",
 *         "book_id": "essays", "labels": {...}, "slug": "a-post",
 *         "file": "posts/a-post/en.md", "markdown": "..."}
 *   out: {"markdown": "...", "line_map": [1, null, 2, ...], "diagnostics": [...]}
 *        "markdown" is the post after its front matter. "line_map" has one
 *        entry per line of the output: the 1-based input line it comes
 *        from, or null for a line the plugin added; stoa reports later
 *        errors at the author's line through it. Without "line_map" stoa
 *        guesses it from the lines input and output share.
 * ------------------------------------------------------------------------ */

/* The name of the optional symbol, for dlsym(). */
#define STOA_HOOKS_SYMBOL "stoa_plugin_hooks_v1"

typedef struct StoaHooksV1 {
    uint32_t size;           /* sizeof(StoaHooksV1) */
    uint32_t reserved;       /* 0 */
    StoaHookFn configure;    /* NULL if not provided */
    StoaHookFn source;       /* NULL if not provided */
} StoaHooksV1;

#if defined(_WIN32)
__declspec(dllexport)
#else
__attribute__((visibility("default")))
#endif
const StoaHooksV1 *stoa_plugin_hooks_v1(void);

/* ------------------------------------------------------------------------
 * The host API (since tree 1.2): stoa's own functions, lent to a plugin so
 * that a plugin in C reads and changes a chapter without a JSON parser.
 *
 * The descriptor above does not change. A plugin that wants the table
 * exports, besides stoa_plugin_v1, the optional function
 *
 *     void stoa_plugin_v1_host_api(const StoaHostApiV1 *api);
 *
 * which stoa calls once, right after loading the library and before any
 * hook, with a table that stays valid while the library is loaded. Keep
 * the pointer in a static. (A stoa older than 1.2 never calls it: the
 * pointer stays NULL, and the plugin should then fail its hooks with
 * STOA_STATUS_PANIC.)
 *
 * In transform:
 *     StoaChapter *ch = api->chapter_open(input, input_len);
 *     if (!ch) return STOA_STATUS_BAD_INPUT;
 *     ... api->block_count(ch), api->block_kind(ch, i), api->block_text(ch, i, &len),
 *         api->insert_paragraph / insert_markdown / insert_raw / remove_block ...
 *     return api->chapter_finish(ch, output);   // writes the answer for you
 * The answer chapter_finish writes belongs to stoa: the plugin's
 * free_buffer must hand it back with api->free_buffer(buffer).
 *
 * Blocks are addressed by their index at the chapter's top level. Strings
 * returned by the API are NUL-terminated UTF-8 owned by the chapter: copy
 * them if you need them after the next change or after chapter_finish.
 * Functions returning int32_t say 0 when done, -1 when refused (an index
 * past the end, invalid UTF-8, a NULL argument).
 *
 * Post text never becomes code: insert_paragraph writes text as text,
 * whatever characters it holds; insert_markdown reads Markdown as a post is
 * read (raw HTML in it made safe); only insert_raw writes code, for one
 * format, and that code is checked after the hook (well-formed XHTML
 * without script for "epub" and "html", Typst that parses and stays in its
 * block for "pdf"). Escape any post text you put in raw code yourself.
 * ---------------------------------------------------------------------- */

/* The name of the optional host API symbol, for dlsym(). */
#define STOA_HOST_API_SYMBOL "stoa_plugin_v1_host_api"
/* The version of the table below; later versions only append functions. */
#define STOA_HOST_API_VERSION 1u

/* A chapter open in a transform call; opaque, owned by stoa. */
typedef struct StoaChapter StoaChapter;

typedef struct StoaHostApiV1 {
    uint32_t size;      /* sizeof the table stoa built: functions past it are absent */
    uint32_t version;   /* STOA_HOST_API_VERSION */
    /* Reads transform's input; NULL when it is unreadable. */
    StoaChapter *(*chapter_open)(const uint8_t *input, size_t input_len);
    /* Writes transform's answer (the chapter as changed, the diagnostics)
     * into *output, frees the chapter, and returns the status to return. */
    int32_t (*chapter_finish)(StoaChapter *chapter, StoaBuffer *output);
    /* Frees a chapter without an answer. */
    void (*chapter_close)(StoaChapter *chapter);
    /* Frees a buffer chapter_finish wrote: call it from your free_buffer. */
    void (*free_buffer)(StoaBuffer buffer);
    /* The edition's language, e.g. "pt-BR". */
    const char *(*lang)(const StoaChapter *chapter);
    /* A setting of [plugins.<name>] as text (numbers and booleans written
     * out), or NULL when absent or an array or table. */
    const char *(*config)(StoaChapter *chapter, const char *key);
    /* How many blocks the chapter has at its top level. */
    size_t (*block_count)(const StoaChapter *chapter);
    /* "paragraph", "heading", "list", "quote", "code", "table", "rule",
     * "footnote_def", "div" or "raw" (static); NULL past the end. */
    const char *(*block_kind)(const StoaChapter *chapter, size_t index);
    /* The plain text of a block and all it holds; *len gets its length
     * when len is not NULL. NULL past the end. */
    const char *(*block_text)(StoaChapter *chapter, size_t index, size_t *len);
    /* Inserts before block index (index == count appends): */
    int32_t (*insert_markdown)(StoaChapter *chapter, size_t index,
                               const uint8_t *markdown, size_t len);
    int32_t (*insert_paragraph)(StoaChapter *chapter, size_t index,
                                const char *class_or_null, const uint8_t *text, size_t len);
    int32_t (*insert_raw)(StoaChapter *chapter, size_t index, const char *format,
                          const uint8_t *payload, size_t len);
    /* Removes block index. Replacing = insert the new block, remove the old. */
    int32_t (*remove_block)(StoaChapter *chapter, size_t index);
    /* A diagnostic on this chapter: severity 0 warning, 1 error. */
    void (*report)(StoaChapter *chapter, int32_t severity, const char *message);
} StoaHostApiV1;

/* ------------------------------------------------------- end of host API */

/* ------------------------------------------------------------------------
 * WebAssembly (a .wasm plugin, run sandboxed by stoa; docs/plugins.md,
 * "WebAssembly plugins"). The same source builds both: compile it with
 *
 *     clang --target=wasm32-unknown-unknown -nostdlib -O2 -Wl,--no-entry \
 *           -I crates/stoa-sdk/include -o stoa_plugin_<name>.wasm plugin.c
 *
 * and end the file with one line, which is empty in a native build:
 *
 *     STOA_WASM_PLUGIN(stoa_plugin_v1, stoa_plugin_hooks_v1 or NULL,
 *                      stoa_plugin_v1_host_api or NULL)
 *
 * It exports what stoa calls in a module: "stoa_plugin_v1" and
 * "stoa_plugin_hooks_v1" (the descriptor and the hooks struct, as above,
 * whose hook fields say which hooks there are), "stoa_alloc" (room for the
 * input; a bump allocator: each call runs in a fresh instance, so nothing
 * is ever freed), and one function per hook, "stoa_configure",
 * "stoa_source", "stoa_transform", "stoa_finish" and "stoa_styles", each
 * calling the descriptor's. The host API comes as the module's imports
 * from "stoa", one per function of StoaHostApiV1, handed to the plugin's
 * stoa_plugin_v1_host_api before its first hook. A module may import
 * nothing else: no WASI, no files, no clock, no environment. There is no
 * C library either (-nostdlib): write the few helpers you need.
 * ------------------------------------------------------------------------ */
#if defined(__wasm__)

#define STOA_WASM_IMPORT(name) __attribute__((import_module("stoa"), import_name(#name)))
STOA_WASM_IMPORT(chapter_open) StoaChapter *stoa_wasm_chapter_open(const uint8_t *, size_t);
STOA_WASM_IMPORT(chapter_finish) int32_t stoa_wasm_chapter_finish(StoaChapter *, StoaBuffer *);
STOA_WASM_IMPORT(chapter_close) void stoa_wasm_chapter_close(StoaChapter *);
STOA_WASM_IMPORT(free_buffer) void stoa_wasm_free_buffer(StoaBuffer);
STOA_WASM_IMPORT(lang) const char *stoa_wasm_lang(const StoaChapter *);
STOA_WASM_IMPORT(config) const char *stoa_wasm_config(StoaChapter *, const char *);
STOA_WASM_IMPORT(block_count) size_t stoa_wasm_block_count(const StoaChapter *);
STOA_WASM_IMPORT(block_kind) const char *stoa_wasm_block_kind(const StoaChapter *, size_t);
STOA_WASM_IMPORT(block_text) const char *stoa_wasm_block_text(StoaChapter *, size_t, size_t *);
STOA_WASM_IMPORT(insert_markdown)
int32_t stoa_wasm_insert_markdown(StoaChapter *, size_t, const uint8_t *, size_t);
STOA_WASM_IMPORT(insert_paragraph)
int32_t stoa_wasm_insert_paragraph(StoaChapter *, size_t, const char *, const uint8_t *, size_t);
STOA_WASM_IMPORT(insert_raw)
int32_t stoa_wasm_insert_raw(StoaChapter *, size_t, const char *, const uint8_t *, size_t);
STOA_WASM_IMPORT(remove_block) int32_t stoa_wasm_remove_block(StoaChapter *, size_t);
STOA_WASM_IMPORT(report) void stoa_wasm_report(StoaChapter *, int32_t, const char *);

/* One hook's export: the descriptor's function, or "no such hook". */
#define STOA_WASM_HOOK(hook, from)                                                   \
    __attribute__((export_name("stoa_" #hook))) int32_t stoa_wasm_##hook(            \
        const uint8_t *input, size_t input_len, StoaBuffer *output) {               \
        stoa_wasm_start();                                                          \
        StoaHookFn fn = (from) ? (from)->hook : NULL;                               \
        return fn ? fn(input, input_len, output) : STOA_STATUS_BAD_INPUT;           \
    }

#define STOA_WASM_PLUGIN(entry, more_hooks, host_api_entry)                          \
    extern unsigned char __heap_base;                                               \
    static uintptr_t stoa_wasm_top;                                                 \
    __attribute__((export_name("stoa_alloc"))) void *stoa_wasm_alloc(size_t len) {  \
        if (!stoa_wasm_top) stoa_wasm_top = (uintptr_t)&__heap_base;                \
        uintptr_t start = (stoa_wasm_top + 7u) & ~(uintptr_t)7u;                     \
        uintptr_t end = start + len;                                                \
        if (end < start) return NULL;                                               \
        uintptr_t have = (uintptr_t)__builtin_wasm_memory_size(0) * 65536u;          \
        if (end > have) {                                                           \
            size_t pages = (end - have + 65535u) / 65536u;                          \
            if (__builtin_wasm_memory_grow(0, pages) == (size_t)-1) return NULL;    \
        }                                                                           \
        stoa_wasm_top = end;                                                        \
        return (void *)start;                                                       \
    }                                                                               \
    static const StoaHostApiV1 stoa_wasm_host_api = {                               \
        sizeof(StoaHostApiV1), STOA_HOST_API_VERSION, stoa_wasm_chapter_open,        \
        stoa_wasm_chapter_finish, stoa_wasm_chapter_close, stoa_wasm_free_buffer,    \
        stoa_wasm_lang, stoa_wasm_config, stoa_wasm_block_count,                    \
        stoa_wasm_block_kind, stoa_wasm_block_text, stoa_wasm_insert_markdown,      \
        stoa_wasm_insert_paragraph, stoa_wasm_insert_raw, stoa_wasm_remove_block,   \
        stoa_wasm_report,                                                           \
    };                                                                              \
    static void stoa_wasm_start(void) {                                             \
        static int started;                                                         \
        void (*lend)(const StoaHostApiV1 *) = (host_api_entry);                     \
        if (!started && lend) lend(&stoa_wasm_host_api);                            \
        started = 1;                                                                \
    }                                                                               \
    __attribute__((export_name("stoa_plugin_v1"))) const StoaPluginV1 *              \
    stoa_wasm_entry(void) { return (entry)(); }                                     \
    static const StoaHooksV1 *stoa_wasm_more(void) {                                \
        const StoaHooksV1 *(*more)(void) = (more_hooks);                            \
        return more ? more() : NULL;                                                \
    }                                                                               \
    __attribute__((export_name("stoa_plugin_hooks_v1"))) const StoaHooksV1 *         \
    stoa_wasm_hooks(void) { return stoa_wasm_more(); }                              \
    STOA_WASM_HOOK(configure, stoa_wasm_more())                                     \
    STOA_WASM_HOOK(source, stoa_wasm_more())                                        \
    STOA_WASM_HOOK(transform, stoa_wasm_entry())                                    \
    STOA_WASM_HOOK(finish, stoa_wasm_entry())                                       \
    STOA_WASM_HOOK(styles, stoa_wasm_entry())

#else
/* A native build exports the symbols themselves: nothing to add. */
#define STOA_WASM_PLUGIN(entry, more_hooks, host_api_entry)
#endif

#ifdef __cplusplus
}
#endif

#endif /* STOA_PLUGIN_H */
