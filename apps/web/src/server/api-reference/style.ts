/**
 * The reference's only style sheet, inline and allowed by its hash (no other style or script
 * runs on the page). Colours meet WCAG AA contrast on their backgrounds; the layout is one
 * column below 60rem, and nothing scrolls sideways at 320 px (long words and code wrap).
 */
export const STYLE = `
*,*::before,*::after{box-sizing:border-box}
html{-webkit-text-size-adjust:100%}
body{margin:0;font:16px/1.55 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1b1f24;background:#fff;overflow-wrap:anywhere}
a{color:#0b4fa8}
a:hover{color:#06326b}
:focus-visible{outline:3px solid #b35900;outline-offset:2px}
.skip{position:absolute;left:.5rem;top:-4rem;background:#fff;color:#0b4fa8;padding:.5rem .75rem;border:2px solid #0b4fa8;z-index:1}
.skip:focus{top:.5rem}
header{background:#14213d;color:#fff;padding:1rem 1.25rem}
header a{color:#fff}
header p{margin:.25rem 0 0}
h1{font-size:1.6rem;margin:0}
h2{font-size:1.45rem;margin:2.5rem 0 .5rem;padding-top:.5rem;border-top:2px solid #d0d7de}
h3{font-size:1.15rem;margin:2rem 0 .5rem}
h4{font-size:1rem;margin:1.25rem 0 .4rem}
h5{font-size:.95rem;margin:1rem 0 .3rem}
.layout{display:grid;grid-template-columns:minmax(0,1fr);max-width:80rem;margin:0 auto}
@media (min-width:60rem){.layout{grid-template-columns:18rem minmax(0,1fr)}nav.toc{position:sticky;top:0;max-height:100vh;overflow:auto;border-right:1px solid #d0d7de}}
nav.toc{padding:1rem 1.25rem;font-size:.9rem}
nav.toc ul{list-style:none;margin:0;padding:0}
nav.toc ul ul{padding-left:.75rem;margin:.25rem 0 .75rem}
nav.toc li{margin:.2rem 0}
main{padding:0 1.25rem 3rem;min-width:0}
code,pre{font:.88em/1.45 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
code{background:#f1f3f5;padding:.05em .3em;border-radius:3px}
pre{background:#f6f8fa;border:1px solid #d0d7de;border-radius:4px;padding:.75rem;white-space:pre-wrap;overflow-wrap:anywhere;margin:.5rem 0}
pre code{background:none;padding:0}
.op{border:1px solid #d0d7de;border-radius:6px;padding:0 1rem 1rem;margin:1.5rem 0}
.op>h3{display:flex;flex-wrap:wrap;gap:.5rem;align-items:baseline}
.method{display:inline-block;min-width:4.2rem;text-align:center;font:700 .8rem/1.6 ui-monospace,Menlo,Consolas,monospace;color:#fff;border-radius:3px;padding:0 .4rem}
.get{background:#1a5c2e}.post{background:#0b4fa8}.put{background:#6b3fa0}.patch{background:#6b3fa0}.delete{background:#a3161c}.head,.options{background:#444}
.path{font:600 .95rem ui-monospace,Menlo,Consolas,monospace}
.summary{font-weight:400}
.meta{color:#3d444d;margin:.25rem 0}
table{border-collapse:collapse;width:100%;margin:.5rem 0;font-size:.9rem}
caption{text-align:left;font-weight:600;padding:.25rem 0}
th,td{border:1px solid #d0d7de;padding:.35rem .5rem;text-align:left;vertical-align:top}
th{background:#f1f3f5}
td p{margin:0 0 .3rem}
.field{font-family:ui-monospace,Menlo,Consolas,monospace}
.notes{color:#3d444d;font-size:.85rem}
.req{font-weight:600;color:#8a1c1c}
details.fields{margin:.5rem 0}
details.fields>summary{cursor:pointer;font-weight:600;padding:.25rem 0}
details.fields[open]>summary{margin-bottom:.25rem}
.visually-hidden{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
footer{border-top:1px solid #d0d7de;padding:1rem 1.25rem;color:#3d444d;font-size:.9rem}
`;
