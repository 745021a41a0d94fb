# arena/report/module.mk — libdarkhex-report: what the reports are made of, below any front end: the standings
# of a scope (games loaded from the store and their rating fits), the figures (gnuplot), a document model of
# sections, tables, figures, notes and warnings with its Markdown, HTML and JSON renderers, and the builders
# of the nightly page of a league and of the index of nights. Used by the `arena` program (and a server).
$(eval $(call library,report,arena/report,coordinator store ratings))
