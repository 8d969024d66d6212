# Builds a calibre library from a JSON list of books (no files, metadata only) in one call to
# calibre's own library API. Run by bench/baselines/calibre-server.ts through calibre-debug:
#   calibre-debug -e calibre-library.py -- <books.json> <library folder>
import json
import sys

from calibre.ebooks.metadata.book.base import Metadata
from calibre.library import db as library_db
from calibre.utils.date import parse_date

books_file, library_folder = sys.argv[-2], sys.argv[-1]
with open(books_file, encoding='utf-8') as source:
    books = json.load(source)

entries = []
for book in books:
    metadata = Metadata(book['title'], book['authors'])
    metadata.comments = book['comments']
    metadata.tags = book['tags']
    metadata.languages = book['languages']
    metadata.timestamp = parse_date(book['timestamp'])
    entries.append((metadata, {}))

ids, _duplicates = library_db(library_folder).new_api.add_books(entries, add_duplicates=True, run_hooks=False)
print('added %d books' % len(ids))
