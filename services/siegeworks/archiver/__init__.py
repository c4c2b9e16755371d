"""The archiver: the fifth service, which moves finished matches out of Redis into archives
(siege.archive; docs/archives.md). ``finding`` says which matches are ready, ``service`` is the
process (``siege serve archiver``), and ``siege archive`` runs one pass at once."""
