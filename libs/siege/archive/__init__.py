"""Archives: finished matches (and tournaments) leave Redis for compressed, checksummed files.

A match log is the truth of a match and Redis keeps it in memory; a host that keeps every
finished match there fills any Redis within weeks. Once a match has ended, been sealed and
passed its audit, its log goes into an archive (:mod:`siege.archive.bundle`: the export, the
keys that sealed it, zstd with its own checksum) in a folder or an S3 bucket
(:mod:`siege.archive.stores`). Only when the archive has been read back and checked does the
log leave Redis, in one script that also writes the tombstone saying where it went
(:mod:`siege.archive.tombstones`). Every reader takes archived logs as if they were live
(:mod:`siege.archive.reading`). See docs/archives.md.
"""
