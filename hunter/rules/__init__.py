"""The rules: what a listing is, which ones a chat wants (filters, pay, destinations, what a chat
changed from its phone), and hunter's own notices. Pure: no I/O."""
