#!/usr/bin/env python3
"""Writes the lists of LaTeX math commands KaTeX and MathJax read, for
stoa-math's command table (crates/stoa-math/tests/commands.rs):
crates/stoa-math/tests/commands/katex.txt and mathjax.txt.

Fetches katex and mathjax-full with `npm pack` into a temporary folder and
reads their definitions: KaTeX's defineFunction/defineMacro/defineSymbol/
defineEnvironment calls, MathJax's command, character, delimiter and
environment maps of its base, AMS and common extensions. Run it after
choosing newer versions, then `STOA_BLESS=1 cargo test -p stoa-math
--test commands` to record each command's result."""
import os, re, subprocess, sys, tarfile, tempfile

KATEX = "katex@0.19.1"
MATHJAX = "mathjax-full@3.2.2"
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "crates", "stoa-math", "tests", "commands")

work = tempfile.mkdtemp()
subprocess.run(["npm", "pack", "--silent", KATEX, MATHJAX], cwd=work, check=True, stdout=subprocess.DEVNULL)
for name in os.listdir(work):
    if name.endswith(".tgz"):
        target = os.path.join(work, "katex" if name.startswith("katex") else "mathjax")
        with tarfile.open(os.path.join(work, name)) as tar:
            tar.extractall(target)
os.chdir(work)
# KaTeX: commands from defineFunction/defineMacro/defineSymbol/defineEnvironment.
k = open('katex/package/dist/katex.js').read()
cmds = set()
for m in re.finditer(r'names:\s*\[([^\]]*)\]', k):
    for s in re.findall(r'"((?:\\\\)?[^"]+)"', m.group(1)):
        cmds.add(s.replace('\\\\', '\\'))
for m in re.finditer(r'defineMacro\("(\\\\[A-Za-z]+)"', k):
    cmds.add(m.group(1).replace('\\\\', '\\'))
for m in re.finditer(r'defineSymbol\([^;]*?"(\\\\[A-Za-z]+)"', k):
    cmds.add(m.group(1).replace('\\\\', '\\'))
envs = set()
for m in re.finditer(r'defineEnvironment\(\{\s*type:\s*"[^"]*",\s*names:\s*\[([^\]]*)\]', k):
    for s in re.findall(r'"([^"]+)"', m.group(1)):
        envs.add(s)
katex = sorted(c for c in cmds if re.fullmatch(r'\\[A-Za-z]+', c)) + sorted('env:' + e for e in envs)
# MathJax: the maps of its base, AMS and common extensions.
files = ['base/BaseMappings.js', 'ams/AmsMappings.js', 'boldsymbol/BoldsymbolConfiguration.js',
         'cancel/CancelConfiguration.js', 'color/ColorConfiguration.js', 'extpfeil/ExtpfeilConfiguration.js',
         'braket/BraketMappings.js']
mj = set()
for f in files:
    p = 'mathjax/package/js/input/tex/' + f
    if not os.path.exists(p): print('missing', p); continue
    t = open(p).read()
    for m in re.finditer(r'new (?:\w+\.)?(CommandMap|CharacterMap|MacroMap|DelimiterMap|EnvironmentMap)\(\s*\'([^\']+)\'', t):
        kind = m.group(1)
        start = t.index('{', m.end())
        depth = 0; i = start
        while i < len(t):
            c = t[i]
            if c in '\'"':
                q = c; i += 1
                while i < len(t) and t[i] != q:
                    if t[i] == '\\': i += 1
                    i += 1
            elif c in '{[(': depth += 1
            elif c in '}])':
                depth -= 1
                if depth == 0: break
            i += 1
        body = t[start+1:i]
        # keys at depth 0 of the object
        d = 0; key_re = re.compile(r"\s*(?:'((?:\\\\)?[^']*)'|\"([^\"]*)\"|([A-Za-z]+))\s*:")
        j = 0
        while j < len(body):
            if d == 0:
                km = key_re.match(body, j)
                if km:
                    key = km.group(1) or km.group(2) or km.group(3)
                    key = key.replace('\\\\', '\\')
                    if kind == 'EnvironmentMap':
                        mj.add('env:' + key)
                    elif kind == 'DelimiterMap':
                        if re.fullmatch(r'\\[A-Za-z]+', key): mj.add(key)
                    elif re.fullmatch(r'[A-Za-z]+', key):
                        mj.add('\\' + key)
                    j = km.end(); continue
            c = body[j]
            if c in '{[(': d += 1
            elif c in '}])': d -= 1
            elif c in '\'"':
                q = c; j += 1
                while j < len(body) and body[j] != q:
                    if body[j] == '\\': j += 1
                    j += 1
            j += 1
def write(name, header, names):
    with open(os.path.join(OUT, name), "w") as f:
        f.write(header + "# regenerate with scripts/math-commands.py\n")
        f.write("\n".join(names) + "\n")

write("katex.txt", f"# KaTeX {KATEX.split('@')[1]}'s commands (\\name) and environments (env:name), from dist/katex.js:\n", katex)
write("mathjax.txt", f"# MathJax {MATHJAX.split('@')[1]}'s TeX input: base, ams, boldsymbol, cancel, color, extpfeil, braket;\n", sorted(mj))
print(len(katex), "KaTeX and", len(mj), "MathJax names written to", os.path.normpath(OUT), file=sys.stderr)
