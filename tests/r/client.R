# An R client of the indapi3 HTTP contract, written the way users of the original
# OpenCPU service call it: httr + jsonlite, JSON and form-encoded bodies, /json, session
# listings, R/.val (print, json, csv, tab, rds via readRDS(url())), files and zip. Stops with a message on the first difference; prints a
# JSON summary of what it saw on success.
#
#   Rscript tests/r/client.R http://localhost:8080
suppressMessages({ library(httr); library(jsonlite) })

args <- commandArgs(TRUE)
host <- sub("/+$", "", if (length(args)) args[1] else "http://localhost:8080")
ocpu <- paste0(host, "/ocpu")
lib <- paste0(ocpu, "/library/indapi3/R")

check <- function(ok, ...) if (!isTRUE(ok)) stop(paste0(...), call. = FALSE)
txt <- function(r) content(r, as = "text", encoding = "UTF-8")
out <- list()

# 1. Category listing, JSON body, /json
r <- POST(paste0(lib, "/category/json"), body = list(q = "elevation"), encode = "json")
check(status_code(r) == 201, "category/json: status ", status_code(r), ": ", txt(r))
cat1 <- fromJSON(txt(r))
check(is.data.frame(cat1) && all(c("category", "subcategory", "item", "code", "label") %in% names(cat1)), "category/json: not a table")
check("ELEVATION" %in% cat1$code, "category/json: ELEVATION missing")
out$category <- nrow(cat1)

# 2. Main query, form-encoded R literals, session listing (no /json)
r <- POST(paste0(lib, "/indapi"), body = list(var = "'ELEVATION'", iso3 = "'KEN'", by = "'ADM1_NAME_ALT'"), encode = "form")
check(status_code(r) == 201, "indapi (form): status ", status_code(r), ": ", txt(r))
key <- headers(r)$`x-ocpu-session`
check(grepl("^x0[0-9a-f]{32}$", key), "bad session key: ", key)
check(identical(headers(r)$location, paste0(ocpu, "/tmp/", key, "/")), "Location: ", headers(r)$location)
paths <- strsplit(txt(r), "\n")[[1]]
check(all(startsWith(paths, paste0("/ocpu/tmp/", key, "/"))), "listing paths: ", paste(paths, collapse = " "))
for (p in paths) {
  g <- GET(paste0(host, p))
  check(status_code(g) == 200, "GET ", p, ": ", status_code(g))
}
val <- fromJSON(txt(GET(paste0(ocpu, "/tmp/", key, "/R/.val/json"))))
check(is.data.frame(val) && all(val$ISO3 == "KEN") && is.numeric(val$ELEVATION), "R/.val/json: unexpected value")
check("ADM1_NAME_ALT" %in% names(val), "R/.val/json: no ADM1_NAME_ALT column")
printed <- txt(GET(paste0(ocpu, "/tmp/", key, "/R/.val")))
check(grepl("ELEVATION", printed), "R/.val print")
csvval <- read.csv(text = txt(GET(paste0(ocpu, "/tmp/", key, "/R/.val/csv"))), stringsAsFactors = FALSE)
check(nrow(csvval) == nrow(val) && identical(names(csvval), names(val)), "R/.val/csv differs from /json")
src <- txt(GET(paste0(ocpu, "/tmp/", key, "/source")))
check(identical(src, 'indapi(var = "ELEVATION", iso3 = "KEN", by = "ADM1_NAME_ALT")\n'), "source: ", src)
listing <- strsplit(txt(GET(paste0(ocpu, "/tmp/", key))), "\n")[[1]] # redirect to .../ followed
check(all(c("R/.val", "stdout", "source", "console", "info") %in% listing), "session listing: ", paste(listing, collapse = " "))
out$rows <- nrow(val)

# 2b. The value in R's own format: readRDS over HTTP (OpenCPU's R/.val/rds), and tab-separated
rds <- readRDS(url(paste0(ocpu, "/tmp/", key, "/R/.val/rds")))
check(is.data.frame(rds) && identical(names(rds), names(val)) && nrow(rds) == nrow(val), "R/.val/rds: ", paste(class(rds), collapse = " "))
check(all(rds$ISO3 == "KEN") && is.numeric(rds$ELEVATION) && isTRUE(all.equal(rds$ELEVATION, val$ELEVATION)), "R/.val/rds values differ from /json")
check(identical(rds$ADM1_NAME_ALT, val$ADM1_NAME_ALT), "R/.val/rds ADM1_NAME_ALT differs from /json")
tab <- read.delim(text = txt(GET(paste0(ocpu, "/tmp/", key, "/R/.val/tab"))), stringsAsFactors = FALSE)
check(identical(names(tab), names(val)) && nrow(tab) == nrow(val), "R/.val/tab differs from /json")
r <- POST(paste0(lib, "/category"), body = list(q = "elevation", as.list = TRUE), encode = "json")
check(status_code(r) == 201, "category as.list: ", status_code(r))
nested <- readRDS(url(paste0(ocpu, "/tmp/", headers(r)$`x-ocpu-session`, "/R/.val/rds")))
check(is.list(nested) && !is.data.frame(nested) && is.data.frame(nested[[1]][[1]]), "R/.val/rds of a nested list")
out$rds <- nrow(rds)

# 3. JSON body with by = {code: breaks}, /json
r <- POST(paste0(lib, "/indapi/json"), body = list(var = "AREA_LAND", iso3 = "KEN", by = list(ELEVATION = c(0, 1000, 6000))), encode = "json")
check(status_code(r) == 201, "indapi/json breaks: ", status_code(r), ": ", txt(r))
brk <- fromJSON(txt(r))
check(is.data.frame(brk) && "ELEVATION" %in% names(brk) && is.numeric(brk$AREA_LAND), "indapi/json breaks: unexpected value")
out$intervals <- unique(brk$ELEVATION[!is.na(brk$ELEVATION)])

# 4. A data package: files and zip
r <- POST(paste0(lib, "/indapi"), body = list(var = "ELEVATION", iso3 = "KEN", by = "ADM1_NAME_ALT", format = "csv"), encode = "json")
check(status_code(r) == 201, "indapi format csv: ", status_code(r), ": ", txt(r))
key2 <- headers(r)$`x-ocpu-session`
files <- grep("/files/", strsplit(txt(r), "\n")[[1]], value = TRUE)
data_file <- grep("\\.csv$", files, value = TRUE)
data_file <- data_file[!grepl("meta\\.csv$", data_file)][1]
check(!is.na(data_file), "no data csv in ", paste(files, collapse = " "))
d <- read.csv(text = txt(GET(paste0(host, data_file))), stringsAsFactors = FALSE)
check("ELEVATION" %in% names(d) && nrow(d) > 0, "data csv")
z <- GET(paste0(ocpu, "/tmp/", key2, "/zip"))
check(status_code(z) == 200 && headers(z)$`content-type` == "application/zip", "zip: ", status_code(z))
check(grepl('filename="ELEVATION-ADM1_NAME_ALT-KEN.csv.zip"', headers(z)$`content-disposition`, fixed = TRUE), "zip name: ", headers(z)$`content-disposition`)
zf <- tempfile(fileext = ".zip")
writeBin(content(z, as = "raw"), zf)
inzip <- unzip(zf, list = TRUE)$Name
check(basename(data_file) %in% inzip && "meta.csv" %in% inzip, "zip holds: ", paste(inzip, collapse = " "))
out$zip <- sort(inzip)

# 5. describe (broken in the original) works
r <- POST(paste0(lib, "/describe/json"), body = list(var = "ELEVATION"), encode = "json")
check(status_code(r) == 201, "describe: ", status_code(r))
check(fromJSON(txt(r))$Code[1] == "ELEVATION", "describe Code")

# 6. Errors as OpenCPU gives them
r <- POST(paste0(lib, "/category"), body = list(cat = "'x'"), encode = "form")
check(status_code(r) == 400, "unused argument: status ", status_code(r))
check(identical(txt(r), 'unused argument (cat = "x")\n\nIn call:\ncategory(cat = "x")\n'), "unused argument message: ", txt(r))
r <- POST(paste0(lib, "/indapi"), body = list(var = "'ELEVATION'", by = "['ADM1_NAME_ALT','ELEVATION']"), encode = "form")
check(status_code(r) == 400 && startsWith(txt(r), "Unparsable argument: ['ADM1_NAME_ALT','ELEVATION']"), "unparsable: ", txt(r))
r <- GET(paste0(ocpu, "/tmp/x0", strrep("0", 32), "/R/.val"))
check(status_code(r) == 404, "unknown session: ", status_code(r))
r <- POST(paste0(lib, "/indapi/json"), body = list(var = "ELEVATION", iso3 = NA), encode = "json") # jsonlite sends null
check(status_code(r) == 400 && startsWith(txt(r), "Unknown country or region code NA"), "iso3 = NA: ", status_code(r), ": ", txt(r))

# 7. Method list and documentation
m <- strsplit(txt(GET(paste0(lib))), "\n")[[1]] # redirect to R/ followed
check(all(c("indapi", "getLayer", "category", "describe", "classify", "similar", "genFile", "getLayerWKT") %in% m), "R/ listing")
h <- GET(paste0(ocpu, "/library/indapi3/man/describe/text"))
check(status_code(h) == 200 && grepl("Usage:", txt(h)), "man/describe/text")
out$methods <- m

cat(toJSON(out, auto_unbox = TRUE), "\n")
