"""One poll: read every source, judge each listing for each chat, record it; each source's health
and its notices."""
