#!/usr/bin/env python3
"""Lists main classes over a line limit and methods over a line limit (issue 17's "small rooms").

    bench/sizes.py [--class-lines 500] [--method-lines 80] [DIR...]   (default: src/main/java)

A method is counted from its signature's first line to its closing brace, found by matching braces outside
comments, strings and character literals; lambdas and anonymous classes count toward the method around them.
Files are Java sources; nested classes count toward their file. Prints "FILE LINES" then "FILE:LINE NAME LINES"."""
import argparse
import os
import re
import sys

SIGNATURE = re.compile(r'^\s*(?:(?:public|protected|private|static|final|abstract|synchronized|native|default)\s+)*'
                       r'(?:<[^>]+>\s+)?[\w<>\[\],.? ]+?\s+(\w+)\s*\([^;]*$')
TYPE = re.compile(r'\b(class|record|interface|enum)\s+\w+')
NOT_METHOD = {'if', 'for', 'while', 'switch', 'catch', 'return', 'new', 'else', 'try', 'synchronized', 'do'}


def code_only(text):
    """The text with comments, strings and char literals blanked (newlines kept), so braces can be counted."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith('//', i):
            j = text.find('\n', i)
            j = n if j < 0 else j
            out.append(' ' * (j - i)); i = j
        elif text.startswith('/*', i):
            j = text.find('*/', i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r'[^\n]', ' ', text[i:j])); i = j
        elif text.startswith('"""', i):
            j = text.find('"""', i + 3)
            j = n if j < 0 else j + 3
            out.append(re.sub(r'[^\n]', ' ', text[i:j])); i = j
        elif c in '"\'':
            j = i + 1
            while j < n and text[j] != c and text[j] != '\n':
                j += 2 if text[j] == '\\' else 1
            out.append(' ' * (j + 1 - i)); i = j + 1
        else:
            out.append(c); i += 1
    return ''.join(out)


def methods(lines):
    """(first line, name, length) of every method or constructor with a body."""
    found, depth, i = [], 0, 0
    starts = []  # (depth at which the body opens, start line, name)
    pending = None
    for no, line in enumerate(lines, 1):
        m = SIGNATURE.match(line)
        if m and m.group(1) not in NOT_METHOD and not TYPE.search(line) and pending is None and not starts:
            pending = (no, m.group(1))
        for ch in line:
            if ch == '{':
                depth += 1
                if pending is not None:
                    starts.append((depth, pending[0], pending[1]))
                    pending = None
            elif ch == '}':
                if starts and starts[-1][0] == depth:
                    d, first, name = starts.pop()
                    found.append((first, name, no - first + 1))
                depth -= 1
        if pending is not None and line.rstrip().endswith(';'):
            pending = None
    return found


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--class-lines', type=int, default=500)
    ap.add_argument('--method-lines', type=int, default=80)
    ap.add_argument('dirs', nargs='*', default=['src/main/java'])
    a = ap.parse_args()
    big, long_methods = [], []
    for d in a.dirs:
        for root, _, files in os.walk(d):
            for f in sorted(files):
                if not f.endswith('.java'):
                    continue
                p = os.path.join(root, f)
                with open(p, encoding='utf-8') as fh:
                    text = fh.read()
                n = text.count('\n')
                if n > a.class_lines:
                    big.append((n, p))
                for first, name, length in methods(code_only(text).split('\n')):
                    if length > a.method_lines:
                        long_methods.append((length, p, first, name))
    print(f'# classes over {a.class_lines} lines')
    for n, p in sorted(big, reverse=True):
        print(f'{p} {n}')
    print(f'# methods over {a.method_lines} lines')
    for length, p, first, name in sorted(long_methods, reverse=True):
        print(f'{p}:{first} {name} {length}')
    return 0


if __name__ == '__main__':
    sys.exit(main())
