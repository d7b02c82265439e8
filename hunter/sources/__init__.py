"""Where listings come from.

spec.py       what a source is: the validated [[sources]] table, plain data
kinds.py      the registry: each kind's keys, their check, and its parser
html.py       CSS selectors -> Listings                       (kind "html")
json.py       dotted paths, link templates, `where` -> Listings (kind "json")
rss.py        RSS and Atom, through feedparser -> Listings     (kind "rss")
fastwork.py   Fastwork's API: categories, newest first, paging (kind "fastwork")
fetch.py      HTTP: one URL, politely (conditional GET, size cap, Retry-After)
inflate.py    Content-Encoding undone within the size cap
encoding.py   bytes -> text (HTTP charset, BOM, <meta charset>, windows-874)
reader.py     one source, all its pages, at once with the others -> SourceRead
conditions.py `where` conditions on JSON items
extract.py    ids from links, budgets from text, clean text
presets.py    real sources described once, as data: fastwork, jobthai, jobsdb,
              freelancer, remoteok, weworkremotely, himalayas, remotive, jobicy
headers.py    a source's own headers, and which of them (and of its url) are secrets
"""
