#!/usr/bin/env python3
"""Every relative link of README.md and of the Markdown under
Documentation/ resolves: the file or directory it names exists, and a
'#anchor' (in the same page or another) is a heading of that page, as
GitHub makes anchors of headings.  A subtest per page, and one that every
page is linked from another (a page no link reaches is not read).  KTAP
on standard output."""
import os
import re
import sys

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
LINK = re.compile(r'!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)')
CODE = re.compile(r'```.*?```|`[^`\n]*`', re.S)


def anchors(path):
    """The anchors GitHub makes of PATH's headings."""
    out = set()
    try:
        text = open(path).read()
    except OSError:
        return out
    for m in re.finditer(r'^#{1,6}\s+(.*?)\s*#*\s*$', CODE.sub('', text), re.M):
        slug = re.sub(r'[^\w\- ]', '', m.group(1).strip().lower()).replace(' ', '-')
        base, n = slug, 1
        while slug in out:
            slug, n = f'{base}-{n}', n + 1
        out.add(slug)
    return out


def targets(page):
    """(target, the path it names) of each relative link of PAGE."""
    text = CODE.sub('', open(page).read())
    for target in LINK.findall(text):
        if re.match(r'^[a-z][a-z0-9+.-]*:', target):  # http:, mailto:, ...
            continue
        path = target.partition('#')[0]
        yield target, (os.path.normpath(os.path.join(os.path.dirname(page), path))
                       if path else page)


def broken(page):
    """The links of PAGE that do not resolve, with why."""
    out = []
    for target, where in targets(page):
        anchor = target.partition('#')[2]
        if not os.path.exists(where):
            out.append(f'{target}: no {os.path.relpath(where, REPO)}')
        elif anchor and where.endswith('.md') and anchor not in anchors(where):
            out.append(f'{target}: no heading #{anchor} in {os.path.relpath(where, REPO)}')
    return out


def pages():
    out = [os.path.join(REPO, 'README.md')]
    for top, dirs, files in os.walk(os.path.join(REPO, 'Documentation')):
        dirs.sort()
        out += [os.path.join(top, f) for f in sorted(files) if f.endswith('.md')]
    return out


def unlinked(ps):
    """The pages of PS that no other page links to (README.md aside)."""
    reached = {where for p in ps for _, where in targets(p) if where != p}
    # a link to a directory reaches its README.md
    reached |= {os.path.join(w, 'README.md') for w in reached}
    return [os.path.relpath(p, REPO) for p in ps[1:] if p not in reached]


def main():
    ps = pages()
    print('KTAP version 1')
    print(f'1..{len(ps) + 1}')
    failed = 0
    orphans = unlinked(ps)
    if orphans:
        failed += 1
        print(f'not ok 1 every_page_linked # linked from no page: {", ".join(orphans)}')
    else:
        print('ok 1 every_page_linked')
    for i, page in enumerate(ps, 2):
        name = os.path.relpath(page, REPO).replace('/', '_').replace('.', '_')
        bad = broken(page)
        if bad:
            failed += 1
            print(f'not ok {i} {name} # {"; ".join(bad[:3])}'
                  + (f' (+{len(bad) - 3} more)' if len(bad) > 3 else ''))
        else:
            print(f'ok {i} {name}')
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
