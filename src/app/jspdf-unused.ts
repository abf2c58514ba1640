/**
 * Stand-in for jspdf's optional dependencies (html2canvas, dompurify, canvg), aliased in
 * `vite.config.ts`. jspdf imports them lazily only for `doc.html()` and `addSvgAsImage()`,
 * which the map export never calls (it converts its SVG with svg2pdf.js), so the build and
 * the service worker's precache leave out about 0.9 MB of code nobody runs.
 * @throws Error always, if something does call them.
 */
function unused(): never {
  throw new Error('This jspdf feature (html/canvg) is not part of indapi3.');
}
export default unused;
