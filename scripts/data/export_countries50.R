# Export the attribute table of rnaturalearthdata's countries50 (Natural Earth 1:50m admin-0)
# to CSV without installing the package: the package's lazy-load data base is read directly.
# Usage: Rscript export_countries50.R <extracted package dir> <out.csv>
args <- commandArgs(trailingOnly = TRUE)
if (length(args) != 2) stop("usage: export_countries50.R <pkgdir> <out.csv>")
db <- file.path(args[1], "data", "Rdata")
if (!file.exists(paste0(db, ".rdb"))) stop("rnaturalearthdata data base not found: ", db)
e <- new.env()
invisible(lazyLoad(db, envir = e))
if (!exists("countries50", envir = e)) stop("countries50 missing from rnaturalearthdata")
x <- get("countries50", envir = e)
d <- if (isS4(x)) x@data else as.data.frame(x)
cols <- c("adm0_a3", "iso_a3", "iso_a2", "iso_n3", "name", "name_long", "income_grp", "economy", "continent", "subregion")
miss <- setdiff(cols, names(d))
if (length(miss)) stop("countries50 lacks columns: ", paste(miss, collapse = ", "))
d <- d[order(as.character(d$adm0_a3)), cols]
for (c in cols) d[[c]] <- as.character(d[[c]])
write.csv(d, args[2], row.names = FALSE, na = "", fileEncoding = "UTF-8")
cat("countries50:", nrow(d), "rows\n")
