# Export the national population totals used by POP_MODEL (scripts/data/pop_model.py) to CSV,
# without installing the packages: each package's lazy-load data base is read directly.
#   Penn World Table 9.1 (pwt9, table pwt9.1): column pop (millions of people), year 2017 (the
#   last year of PWT 9.1), every country with a value.
#   Gapminder (dslabs, table gapminder): column population (people), year 2015, Eritrea only
#   (PWT 9.1 has no Eritrea).
# Usage: Rscript export_population.R <pwt9 pkgdir> <dslabs pkgdir> <out.csv>
args <- commandArgs(trailingOnly = TRUE)
if (length(args) != 3) stop("usage: export_population.R <pwt9 dir> <dslabs dir> <out.csv>")
load_table <- function(pkgdir, name) {
  db <- file.path(pkgdir, "data", "Rdata")
  if (!file.exists(paste0(db, ".rdb"))) stop("data base not found: ", db)
  e <- new.env()
  invisible(lazyLoad(db, envir = e))
  if (!exists(name, envir = e)) stop(name, " missing from ", pkgdir)
  as.data.frame(get(name, envir = e))
}
pwt <- load_table(args[1], "pwt9.1")
p <- pwt[pwt$year == 2017 & !is.na(pwt$pop), c("isocode", "pop")]
out <- data.frame(iso3 = as.character(p$isocode), year = 2017L,
                  population = sprintf("%.0f", round(p$pop * 1e6)), source = "PWT 9.1", stringsAsFactors = FALSE)
gm <- load_table(args[2], "gapminder")
g <- gm[gm$year == 2015 & as.character(gm$country) == "Eritrea" & !is.na(gm$population), ]
if (nrow(g) != 1) stop("gapminder: no 2015 population of Eritrea")
out <- rbind(out, data.frame(iso3 = "ERI", year = 2015L, population = sprintf("%.0f", g$population),
                             source = "Gapminder (dslabs)", stringsAsFactors = FALSE))
out <- out[order(out$iso3, out$source), ]
write.csv(out, args[3], row.names = FALSE, fileEncoding = "UTF-8")
cat("population:", nrow(out), "national totals\n")
