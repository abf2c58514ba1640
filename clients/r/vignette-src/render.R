# Recomputes the package's vignette: renders porting-hcapi3.Rmd against a running server
# (INDAPI3_SERVER) and writes it as ../indapi3/vignettes/porting-hcapi3.Rhtml with the
# vignette header, so `R CMD build` copies it through knitr without pandoc.
# Run from the repository root: Rscript clients/r/vignette-src/render.R
options(rmarkdown.html_vignette.check_title = FALSE)
out <- rmarkdown::render("clients/r/vignette-src/porting-hcapi3.Rmd", output_dir = tempdir(), quiet = TRUE)
html <- readLines(out, encoding = "UTF-8")
header <- c("<!--", "%\\VignetteIndexEntry{Porting hcapi3 scripts}", "%\\VignetteEngine{knitr::knitr}",
  "%\\VignetteEncoding{UTF-8}",
  "Precomputed: rendered from clients/r/vignette-src/porting-hcapi3.Rmd (see its README); it has no code chunks, so knitr copies it as it is and no pandoc is needed.",
  "-->", "")
writeLines(c(html[1], header, html[-1]), "clients/r/indapi3/vignettes/porting-hcapi3.Rhtml", useBytes = TRUE)
