"""A small Swift lexer for the repository's checks: the code of a source file with comments and
string-literal text blanked out (string interpolations are kept: they are code), line breaks
kept, so that a name found in the result is a name in code. DocC symbol links in comments
(``Name``) are kept as well, since they name symbols too."""
import re

_LINK = re.compile(r"``([^`]+)``")


def code_of(source: str) -> str:
    out = []
    i, n = 0, len(source)

    def blank(text):
        out.append("".join("\n" if c == "\n" else " " for c in text))

    def string(start):
        """Reads a string literal at `start`; returns the index after it."""
        j = start
        hashes = 0
        while j < n and source[j] == "#":
            hashes += 1
            j += 1
        triple = source.startswith('"""', j)
        quote = '"""' if triple else '"'
        out.append(" " * (j - start + len(quote)))
        j += len(quote)
        closing = quote + "#" * hashes
        escape = "\\" + "#" * hashes
        while j < n:
            if source.startswith(closing, j):
                out.append(" " * len(closing))
                return j + len(closing)
            if source.startswith(escape + "(", j):
                out.append(" " * (len(escape) + 1))
                j += len(escape) + 1
                depth = 1
                inner_start = j
                while j < n and depth:
                    c = source[j]
                    if c == '"' or (c == "#" and source[j:].lstrip("#").startswith('"')):
                        out.append(code_of(source[inner_start:j]))
                        j = string(j)
                        inner_start = j
                        continue
                    if c == "(":
                        depth += 1
                    elif c == ")":
                        depth -= 1
                        if depth == 0:
                            break
                    j += 1
                out.append(code_of(source[inner_start:j]))
                out.append(" ")
                j += 1
                continue
            if source.startswith(escape, j) and hashes == 0 and j + 1 < n:
                blank(source[j:j + 2])
                j += 2
                continue
            if not triple and source[j] == "\n":
                return j  # an unterminated single-line string ends at the line break
            blank(source[j])
            j += 1
        return j

    while i < n:
        c = source[i]
        if source.startswith("//", i):
            end = source.find("\n", i)
            end = n if end == -1 else end
            comment = source[i:end]
            links = " ".join(_LINK.findall(comment))
            out.append(" " + links + " " * max(0, len(comment) - len(links) - 1))
            i = end
        elif source.startswith("/*", i):
            depth, j = 0, i
            while j < n:
                if source.startswith("/*", j):
                    depth += 1
                    j += 2
                elif source.startswith("*/", j):
                    depth -= 1
                    j += 2
                    if depth == 0:
                        break
                else:
                    j += 1
            comment = source[i:j]
            out.append(" ".join(_LINK.findall(comment)) + " ")
            out.append("\n" * comment.count("\n"))
            i = j
        elif c == '"' or (c == "#" and re.match(r'#+"', source[i:])):
            i = string(i)
        else:
            out.append(c)
            i += 1
    return "".join(out)
