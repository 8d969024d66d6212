# Adds one book file to a calibre library (made if the folder is empty) through calibre's own
# library API, as `calibredb add` files it, but without calibredb's refusal to run beside any
# calibre server. Run by bench/baselines/calibre-download.ts through calibre-debug:
#   calibre-debug -e calibre-add-file.py -- <book file> <library folder>
import os
import sys

from calibre.ebooks.metadata.meta import get_metadata
from calibre.library import db as library_db

book_file, library_folder = sys.argv[-2], sys.argv[-1]
book_format = os.path.splitext(book_file)[1][1:].lower()
with open(book_file, 'rb') as stream:
    metadata = get_metadata(stream, book_format)

ids, _duplicates = library_db(library_folder).new_api.add_books(
    [(metadata, {book_format: book_file})], add_duplicates=True, run_hooks=False)
print('Added book ids: %d' % ids[0])
