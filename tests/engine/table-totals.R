# Totals of the table builder computed independently in R (terra reads the COGs, data.table
# evaluates each catalog formula, vi.csv aggFunR, with eval(parse())): per cell of ELEV_ZONE x
# country, per ELEV_ZONE over all selected countries together, per country, and over all of
# them. Usage: Rscript tests/engine/table-totals.R <input.json> ; prints JSON.
# input.json: [{ dir (bundle), sel: [ISO3 codes], vars: [codes] }, ...]
suppressMessages({ library(terra); library(data.table); library(jsonlite) })
inp <- fromJSON(commandArgs(TRUE)[1], simplifyVector = FALSE)
num <- function(v) if (is.na(v) || !is.finite(v)) NA else v
out <- lapply(inp, function(job) {
  dir <- job$dir
  vi <- fread(file.path(dir, "vi.csv"))
  sel <- unlist(job$sel)
  vars <- unlist(job$vars)
  recs <- vi[varCode %in% vars]
  # every column the formulas name (the record's own code among them)
  cols <- unique(c("ISO3", "ELEV_ZONE", vars, unlist(lapply(recs$aggFunR, function(f) intersect(all.vars(parse(text = f)[[1]]), vi$varCode)))))
  s <- rast(lapply(cols, function(k) rast(file.path(dir, "cog", paste0(k, ".tif")))))
  names(s) <- cols
  dt <- as.data.table(as.data.frame(s, na.rm = FALSE))
  iso <- fread(file.path(dir, "classes", "ISO3.csv"), colClasses = list(character = "label"))
  zone <- fread(file.path(dir, "classes", "ELEV_ZONE.csv"), colClasses = list(character = "label"))
  dt[, iso3 := iso$label[match(ISO3, iso$value)]]
  dt <- dt[iso3 %in% sel]
  dt[, zone := zone$label[match(ELEV_ZONE, zone$value)]]
  dt[is.na(zone), zone := "NA"]
  res <- lapply(seq_len(nrow(recs)), function(i) {
    e <- parse(text = recs$aggFunR[i])[[1]]
    d <- recs$dec[i]
    g <- function(by) {
      r <- if (is.null(by)) dt[, .(v = eval(e))] else dt[, .(v = eval(e)), keyby = by]
      r[, v := lapply(v, function(x) num(round(x, d)))]
      r
    }
    list(formula = recs$aggFunR[i], dec = d, cells = g(c("zone", "iso3")), zones = g("zone"), countries = g("iso3"), all = g(NULL)$v[[1]])
  })
  setNames(res, recs$varCode)
})
cat(toJSON(out, digits = NA, auto_unbox = TRUE, na = "null"))
