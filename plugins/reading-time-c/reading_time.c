/*
 * reading-time-c: a stoa plugin written in C, with no JSON parser of its
 * own. It puts "N min read" ("N min de leitura" in Portuguese) at the top
 * of each post, counted from the words of every block, and draws a thin
 * rule under it in print with raw Typst.
 *
 * It reads and changes the chapter through the host API that stoa lends it
 * (stoa_plugin.h, "The host API"). Build it (see README.md):
 *
 *     cc -shared -fPIC -std=c11 -O2 -I crates/stoa-sdk/include \
 *        -o libstoa_plugin_reading_time_c.so plugins/reading-time-c/reading_time.c
 *
 * The same file builds the WebAssembly plugin beside it,
 * stoa_plugin_reading_time_c.wasm (scripts/build-wasm-plugins). It uses no
 * C library, which a WebAssembly plugin does not have.
 *
 * Settings, [plugins.reading-time-c] in book.toml:
 *     words-per-minute = 200     (the default; 50 to 1000)
 */
#include "stoa_plugin.h"

/* The table stoa hands us once, before any hook. */
static const StoaHostApiV1 *host;

#if defined(_WIN32)
__declspec(dllexport)
#else
__attribute__((visibility("default")))
#endif
void stoa_plugin_v1_host_api(const StoaHostApiV1 *api) {
    /* Keep it only if it is at least the table this file was written for. */
    if (api && api->version >= 1 && api->size >= sizeof(StoaHostApiV1)) {
        host = api;
    }
}

/* Words in text: runs of characters between spaces. */
static size_t count_words(const char *text, size_t len) {
    size_t words = 0;
    int in_word = 0;
    for (size_t i = 0; i < len; i++) {
        int space = text[i] == ' ' || text[i] == '\n' || text[i] == '\t';
        if (!space && !in_word) {
            words++;
        }
        in_word = !space;
    }
    return words;
}

/* The whole number `text` holds, or -1 when it holds anything else. */
static long whole_number(const char *text) {
    long n = 0;
    if (*text == '\0') {
        return -1;
    }
    for (; *text; text++) {
        if (*text < '0' || *text > '9' || n > 100000) {
            return -1;
        }
        n = n * 10 + (*text - '0');
    }
    return n;
}

/* Writes `n` then `words` into `out` (room enough); the length. */
static size_t say_minutes(char *out, long n, const char *words) {
    char digits[24];
    size_t len = 0, count = 0;
    do {
        digits[count++] = (char)('0' + n % 10);
        n /= 10;
    } while (n > 0);
    while (count > 0) {
        out[len++] = digits[--count];
    }
    for (; *words; words++) {
        out[len++] = *words;
    }
    return len;
}

static int32_t transform(const uint8_t *input, size_t input_len, StoaBuffer *output) {
    if (!host) {
        return STOA_STATUS_PANIC; /* a stoa without the host API */
    }
    StoaChapter *chapter = host->chapter_open(input, input_len);
    if (!chapter) {
        return STOA_STATUS_BAD_INPUT;
    }

    long per_minute = 200;
    const char *setting = host->config(chapter, "words-per-minute");
    if (setting) {
        per_minute = whole_number(setting);
        if (per_minute < 50 || per_minute > 1000) {
            host->report(chapter, 1,
                         "[plugins.reading-time-c] in book.toml: `words-per-minute` must be "
                         "a whole number from 50 to 1000");
            return host->chapter_finish(chapter, output);
        }
    }

    size_t words = 0;
    size_t count = host->block_count(chapter);
    for (size_t i = 0; i < count; i++) {
        size_t len = 0;
        const char *text = host->block_text(chapter, i, &len);
        if (text) {
            words += count_words(text, len);
        }
    }
    if (words == 0) {
        return host->chapter_finish(chapter, output); /* nothing to read */
    }

    long minutes = (long)((words + (size_t)per_minute - 1) / (size_t)per_minute);
    const char *lang = host->lang(chapter);
    int portuguese = lang && lang[0] == 'p' && lang[1] == 't';
    char line[64];
    size_t n = say_minutes(line, minutes, portuguese ? " min de leitura" : " min read");
    /* Text goes in as text: stoa never reads it as markup. */
    host->insert_paragraph(chapter, 0, "reading-time", (const uint8_t *)line, n);
    /* Code for one format goes in as raw output; it holds no post text. */
    static const char rule[] = "#line(length: 3em, stroke: 0.4pt + luma(60%))";
    host->insert_raw(chapter, 1, "pdf", (const uint8_t *)rule, sizeof rule - 1);
    return host->chapter_finish(chapter, output);
}

/* Our only outputs are the ones chapter_finish wrote: they are stoa's. */
static void free_buffer(StoaBuffer buffer) {
    if (host) {
        host->free_buffer(buffer);
    }
}

static const StoaPluginV1 DESCRIPTOR = {
    STOA_ABI_VERSION, STOA_TREE_VERSION, "reading-time-c", "1.0.0",
    transform, NULL, NULL, free_buffer,
};

#if defined(_WIN32)
__declspec(dllexport)
#else
__attribute__((visibility("default")))
#endif
const StoaPluginV1 *stoa_plugin_v1(void) {
    return &DESCRIPTOR;
}

/* In a WebAssembly build, the exports stoa calls (empty in a native one). */
STOA_WASM_PLUGIN(stoa_plugin_v1, NULL, stoa_plugin_v1_host_api)
