"""Where listings come from.

fetch.py      HTTP: one URL, politely (conditional GET, size cap, Retry-After)
encoding.py   bytes -> text (HTTP charset, BOM, <meta charset>, windows-874)
html.py       CSS selectors -> Listings
json.py       dotted paths, link templates, `where` conditions -> Listings
rss.py        RSS 2.0 and Atom -> Listings
reader.py     one source, all its pages, at once with the others -> SourceRead
presets.py    sources described once (fastwork, remoteok, weworkremotely)
"""
