test_that("the server comes from the option, then INDAPI3_SERVER, then the default", {
  withr_env <- Sys.getenv("INDAPI3_SERVER", unset = NA)
  on.exit(if (is.na(withr_env)) Sys.unsetenv("INDAPI3_SERVER") else Sys.setenv(INDAPI3_SERVER = withr_env))
  old <- options(indapi3.server = NULL)
  on.exit(options(old), add = TRUE)
  Sys.unsetenv("INDAPI3_SERVER")
  expect_equal(indapi3_server(), "http://localhost:8080/ocpu")
  Sys.setenv(INDAPI3_SERVER = "http://example.org:9/ocpu/")
  expect_equal(indapi3_server(), "http://example.org:9/ocpu")
  options(indapi3.server = "http://127.0.0.1:1/ocpu")
  expect_equal(indapi3_server(), "http://127.0.0.1:1/ocpu")
})

test_that("arguments are sent as one JSON object with scalars, arrays, objects and null", {
  j <- indapi3:::.indapi3_json(list(var = "ELEVATION", iso3 = c("KEN", "UGA"), by = list(ELEVATION = c(0, 500.5)),
                                    collapse = FALSE, dig.lab = 4L, x = NA))
  expect_equal(j, '{"var":"ELEVATION","iso3":["KEN","UGA"],"by":{"ELEVATION":[0,500.5]},"collapse":false,"dig.lab":4,"x":null}')
  expect_equal(indapi3:::.indapi3_json(list()), "{}")
})

test_that("only supplied arguments are sent, by their full names, NULL ones left out", {
  f <- function(var, iso3 = "SSA", by = NULL, as.list = FALSE) indapi3:::.indapi3_supplied(match.call(), environment())
  expect_equal(f("A", by = NULL, as.l = TRUE), list(var = "A", as.list = TRUE))
  expect_equal(f(c("A", "B"), "KEN"), list(var = c("A", "B"), iso3 = "KEN"))
})

test_that("requests name the package and version and retry 429 and 503", {
  old <- options(indapi3.max_tries = NULL)
  on.exit(options(old))
  req <- indapi3:::.indapi3_request("http://127.0.0.1:1/ocpu")
  expect_match(req$options$useragent, paste0("^indapi3 R package ", utils::packageVersion("indapi3")))
  expect_equal(req$policies$retry_max_tries, 4)
  transient <- req$policies$retry_is_transient
  expect_true(transient(httr2::response(status_code = 503)))
  expect_true(transient(httr2::response(status_code = 429)))
  expect_false(transient(httr2::response(status_code = 500)))
})

test_that("a server error is an R condition with its message and status", {
  mock <- function(req) httr2::response(status_code = 400, headers = "Content-Type: text/plain",
                                        body = charToRaw("Variable NOPE was not found.\n\nIn call:\nindapi(var = \"NOPE\")"))
  err <- httr2::with_mock(mock, tryCatch(indapi("NOPE"), error = function(e) e))
  expect_s3_class(err, "indapi3_error")
  expect_s3_class(err, "indapi3_http_400")
  expect_equal(err$status, 400)
  expect_match(conditionMessage(err), "Variable NOPE was not found", fixed = TRUE)
})

test_that("no server is an indapi3_connection_error naming the server", {
  old <- options(indapi3.server = "http://127.0.0.1:9/ocpu", indapi3.max_tries = 1)
  on.exit(options(old))
  expect_false(indapi3_available(timeout = 2))
  expect_error(category(), class = "indapi3_connection_error")
})

test_that("the generated functions have the registry's argument names; aliases are the same functions", {
  sigs <- indapi3:::.indapi3_signatures
  for (m in names(sigs)) expect_equal(names(formals(getExportedValue("indapi3", m))), sigs[[m]], info = m)
  expect_identical(hcapi, indapi)
  expect_identical(indicator, describe)
  expect_equal(names(formals(stats)), c("var", "iso3", "by"))
})

test_that("the cache is off until turned on", {
  old <- options(indapi3.cache = NULL)
  on.exit(options(old))
  d <- file.path(tempdir(), "cache-test")
  expect_equal(indapi3_cache(d), normalizePath(d))
  expect_equal(getOption("indapi3.cache"), normalizePath(d))
  expect_null(indapi3_cache(FALSE))
  expect_null(getOption("indapi3.cache"))
})
