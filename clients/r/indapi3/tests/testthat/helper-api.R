# The JSON API called directly (httr2 and jsonlite, not the package's functions), to compare
# each function's answer with it.
api <- function(method, args = list()) {
  body <- if (length(args)) jsonlite::toJSON(args, auto_unbox = TRUE, digits = NA) else "{}"
  req <- httr2::request(paste0(indapi3_server(), "/library/indapi3/R/", method, "/json"))
  resp <- httr2::req_perform(httr2::req_body_raw(req, as.character(body), type = "application/json"))
  jsonlite::fromJSON(httr2::resp_body_string(resp), simplifyVector = TRUE)
}

# A data.frame with its factors as character vectors (as the JSON API gives them).
plain <- function(x) {
  x[] <- lapply(x, function(v) if (is.factor(v)) as.character(v) else v)
  x
}

skip_without_server <- function() {
  skip_if_not(indapi3_available(), paste("no indapi3 server at", indapi3_server()))
}
