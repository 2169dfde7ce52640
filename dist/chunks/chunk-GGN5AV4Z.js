import { createRequire as __meshPerfCreateRequire } from 'node:module'; const require = __meshPerfCreateRequire(import.meta.url);
import{H as Qe,K as qe,L as Xe,M as et,N as tt,O as ne,P as rt,Q as ie,R as nt,a as Ve,b as Ke}from"./chunk-JN33MDNE.js";import{a as Ut,c as Ze,d as m,e as A,g as T,h as te,i as R,j as M,s as We,t as Ye,u as ke,v as re}from"./chunk-MBNELZOT.js";import{d as Ht}from"./chunk-2LLLDEQZ.js";var it=[{flag:"preset",input:"preset",path:"preset",kind:"string",description:"Start from a preset (see `mesh-perf presets`)."},{flag:"suite",input:"suite",path:"suite",kind:"string",description:"Suite name that groups results in history."},{flag:"platform",input:"platform",path:"platform",kind:"string",description:"local, endpoints, kind or kubeconfig."},{flag:"modes",input:"modes",path:"modes",kind:"yaml",description:"Modes as YAML (a list of {name, ...}), or comma-separated mesh mode names."},{flag:"rate",input:"rate",path:"load.rate",kind:"number",description:"Target requests per second (open model)."},{flag:"duration",input:"duration",path:"load.duration",kind:"string",description:"Measured time per repetition, e.g. 30s."},{flag:"repetitions",input:"repetitions",path:"load.repetitions",kind:"number",description:"Repetitions per mode, interleaved across modes."},{flag:"gates",input:"gates",path:"gates.thresholds",kind:"list",description:"Threshold expressions, one per line, e.g. p(95) < 250ms."},{flag:"history-branch",input:"history-branch",path:"history.branch",kind:"string",description:"Branch that keeps the results history."},{flag:"comment",input:"comment",path:"github.comment",kind:"string",description:"Sticky PR comment: off, on-failure or always."},{flag:"seed",input:"seed",path:"plan.seed",kind:"number",description:"Seed of the randomized interleaving."},{flag:"baseline",input:"baseline",path:"baseline",kind:"string",description:"Mode that overheads are computed against."},{flag:"history-store",input:"history-store",path:"history.store",kind:"string",description:"Git URL or directory that keeps the results history."},{flag:"publish",input:"publish",path:"history.publish",kind:"boolean",description:"Publish this run to the history store: true or false."},{flag:"dashboard-url",input:"dashboard-url",path:"github.dashboardUrl",kind:"string",description:"Link to the trend dashboard shown in summaries and comments."},{flag:"kubeconfig",input:"kubeconfig-file",path:"kubernetes.kubeconfig",kind:"string",description:"Path of a kubeconfig file (kubeconfig platform)."},{flag:"context",input:"kube-context",path:"kubernetes.context",kind:"string",description:"Kubeconfig context to use."},{flag:"istio-version",input:"istio-version",path:"kubernetes.istio.version",kind:"string",description:"Istio version to install (one mesh-perf pins)."},{flag:"linkerd-version",input:"linkerd-version",path:"kubernetes.linkerd.version",kind:"string",description:"Linkerd version to install (one mesh-perf pins)."}];function Ee(r,e,t){let n=e.split("."),s=r;for(let i of n.slice(0,-1)){let o=s[i];if(Array.isArray(o)){for(let a of o)a&&typeof a=="object"&&Ee(a,n.slice(n.indexOf(i)+1).join("."),t);return}(typeof o!="object"||o===null)&&(s[i]={}),s=s[i]}s[n.at(-1)]=t}function st(r,e,t){switch(r.kind){case"string":return e;case"number":{let n=Number(e);if(e.trim()===""||!Number.isFinite(n))throw new m(`${t}: expected a number, got ${JSON.stringify(e)}`);return n}case"boolean":if(e==="true"||e==="false")return e==="true";throw new m(`${t}: expected true or false, got ${JSON.stringify(e)}`);case"list":return e.split(`
`).map(n=>n.trim()).filter(Boolean);case"yaml":return e}}var ct=Ht(Ut(),1);import{readFile as Qt}from"node:fs/promises";function $e(r,e){if(!ot(r)||!ot(e))return e===void 0?r:e;let t={...r};for(let[n,s]of Object.entries(e))t[n]=$e(r[n],s);return t}function ot(r){return typeof r=="object"&&r!==null&&!Array.isArray(r)}var se=class extends m{constructor(t,n){let s=n.map(o=>`  - ${o.path||"(top level)"}: ${o.message}`),i=n.length===1?"a problem":`${n.length} problems`;super(`${t} has ${i}:
${s.join(`
`)}`);this.source=t;this.problems=n;this.name="ConfigError"}source;problems};function at(r,e="config"){let t=ke.safeParse(r??{},{reportInput:!0});if(!t.success)throw new se(e,t.error.issues.flatMap(s=>ut(s,[])));let n=Wt(t.data);if(n.length>0)throw new se(e,n);return Yt(t.data)}function zt(r){let e="";for(let t of r)typeof t=="number"?e+=`[${t}]`:e+=e?`.${String(t)}`:String(t);return e}function ut(r,e){let t=[...e,...r.path];if(r.code==="invalid_union"){let n=r.input,s=Array.isArray(n)?"array":typeof n=="object"&&n!==null?"object":void 0,i=s&&r.errors.find(o=>!o.some(a=>a.code==="invalid_type"&&a.path.length===0&&a.expected===s));if(i&&i.length>0)return i.flatMap(o=>ut(o,t))}return[Gt({...r,path:t})]}function Gt(r){let e=zt(r.path);if(r.code==="unrecognized_keys"){let t=Vt(ke,r.path),n=r.keys.map(s=>{let i=te(s,t);return i?`unknown key "${s}"; did you mean "${i}"?`:`unknown key "${s}"`});return{path:e,message:`${n.join("; ")} (expected one of: ${t.join(", ")})`}}if(r.code==="invalid_value"&&"values"in r){let t=r.input;return{path:e,message:`expected one of ${r.values.map(n=>JSON.stringify(n)).join(", ")}, got ${re(t)}`}}if(r.code==="invalid_type"&&r.input===void 0)return{path:e,message:`is required (expected ${r.expected})`};if(r.code==="invalid_type"&&!r.message.startsWith("expected"))return{path:e,message:`expected ${r.expected}, got ${re(r.input)}`};if(r.code==="invalid_union"){let t=r.input;return{path:e,message:`expected an object or a list of objects, got ${re(t)}`}}return{path:e,message:r.message}}function Vt(r,e){let t=r;for(let n of e){if(t=t&&J(t),!t)return[];if(t instanceof R.ZodObject)t=t.shape[String(n)];else if(t instanceof R.ZodArray)t=t.element;else if(t instanceof R.ZodUnion){let s=t.options,i=typeof n=="number"?s.find(o=>J(o)instanceof R.ZodArray):s.find(o=>J(o)instanceof R.ZodObject);t=i&&Kt(i,n)}else return[]}return t=t&&J(t),t instanceof R.ZodUnion&&(t=t.options.map(J).find(n=>n instanceof R.ZodObject)),t instanceof R.ZodObject?Object.keys(t.shape):[]}function Kt(r,e){let t=J(r);if(t instanceof R.ZodArray)return t.element;if(t instanceof R.ZodObject)return t.shape[String(e)]}var Zt=new Set(["optional","default","prefault","nullable","readonly","catch","nonoptional"]);function J(r){let e=r;for(;;){let t=e._zod.def;if(Zt.has(t.type)&&t.innerType)e=t.innerType;else if(t.type==="pipe"&&t.in)e=t.in;else return e}}function Wt(r){let e=[],t=r.modes.map(i=>i.name);r.modes.forEach((i,o)=>{t.indexOf(i.name)!==o&&e.push({path:`modes[${o}].name`,message:`duplicate mode name "${i.name}"; each mode needs its own name`})}),r.baseline!==void 0&&!t.includes(r.baseline)&&e.push({path:"baseline",message:`names no mode: got "${r.baseline}", expected one of ${t.map(i=>`"${i}"`).join(", ")}`});let n=Array.isArray(r.load)?r.load:[r.load];n.forEach((i,o)=>{let a=Array.isArray(r.load)?`load[${o}]`:"load";i.model==="open"&&i.rate===void 0&&i.script===void 0&&e.push({path:`${a}.rate`,message:"is required for the open model (expected requests per second > 0)"}),i.model==="closed"&&i.vus===void 0&&i.script===void 0&&e.push({path:`${a}.vus`,message:"is required for the closed model (expected a whole number \u2265 1)"}),i.body!==void 0&&i.payloadBytes!==void 0&&e.push({path:`${a}.payloadBytes`,message:"set either body or payloadBytes, not both"}),i.script!==void 0&&(r.platform==="kind"||r.platform==="kubeconfig")&&e.push({path:`${a}.script`,message:`is not supported on platform "${r.platform}" yet (k6 runs in a pod there, where the script's own imports cannot be resolved); use platform endpoints with your cluster's URLs`}),M(i.duration)===0&&e.push({path:`${a}.duration`,message:`expected a duration > 0, got "${i.duration}"`}),r.modes.forEach((c,p)=>{r.platform==="endpoints"&&(i.protocol==="grpc"&&!c.grpc&&e.push({path:`modes[${p}].grpc`,message:`is required: platform "endpoints" with ${a}.protocol grpc needs a host:port per mode`}),i.protocol==="http"&&!c.url&&!i.script&&e.push({path:`modes[${p}].url`,message:'is required: platform "endpoints" needs an http(s) URL per mode'}))})});let s=n.map(dt);return e.push(...We(r.gates,t,s)),s.forEach((i,o)=>{s.indexOf(i)!==o&&e.push({path:`load[${o}].name`,message:`duplicate load profile name "${i}"; give each profile a name`})}),e}function dt(r){return r.name?r.name:r.model==="closed"?`${r.vus??"script"}vus`:r.rate!==void 0?`${r.rate}rps`:"script"}function Yt(r){let{load:e,baseline:t,...n}=r,s=(Array.isArray(e)?e:[e]).map(i=>({...i,name:dt(i),durationMs:M(i.duration),warmupMs:M(i.warmup),timeoutMs:M(i.timeout),expectedLatencyMs:M(i.expectedLatency),pauseMs:M(i.pause)}));return{...n,baseline:t??r.modes[0].name,profiles:s}}async function dn(r){let e={};r.file&&(e=lt(await qt(r.file),r.file));let t=er(r.overrides??{},r.overrideOrigin??"flag"),s=t.find(a=>a.path==="preset")?.value??e?.preset??r.defaults?.preset,i=typeof s=="string"?Xt(s):{},o=[r.defaults??{},i,e].reduce($e,{});for(let{path:a,value:c}of t)Ee(o,a,c);return at(o,r.file??"configuration")}async function qt(r){try{return await Qt(r,"utf8")}catch(e){throw e.code==="ENOENT"?new m(`config file ${r} does not exist; pass --config FILE, or run \`mesh-perf demo\` to try the tool without one`):new m(`cannot read config file ${r}: ${e.message}`)}}function lt(r,e){let t=(0,ct.parseDocument)(r,{prettyErrors:!0,uniqueKeys:!0});if(t.errors.length>0){let s=t.errors[0],i=s.linePos?.[0]?` at line ${s.linePos[0].line}, column ${s.linePos[0].col}`:"";throw new m(`${e} is not valid YAML${i}: ${s.message.split(`
`)[0]}`)}let n=t.toJS();if(n!=null&&(typeof n!="object"||Array.isArray(n)))throw new m(`${e}: expected a YAML mapping (key: value) at the top level, got ${Array.isArray(n)?"a list":typeof n}`);return n??{}}function Xt(r){let e=Ke(r);if(!e){let t=Ve.map(s=>s.name),n=te(r,t);throw new m(`preset: unknown preset "${r}"${n?`; did you mean "${n}"?`:""} (expected one of: ${t.join(", ")||"none available"})`)}return e.config}function er(r,e){let t=[];for(let n of it){let s=e==="flag"?n.flag:n.input,i=r[s];if(i===void 0||i==="")continue;let o=e==="flag"?`--${s}`:`input ${s}`,a=st(n,i,o);n.path==="modes"&&(a=tr(String(a),o)),t.push({path:n.path,value:a})}return t}function tr(r,e){return/^[a-z0-9-]+(\s*,\s*[a-z0-9-]+)*$/.test(r.trim())?r.split(",").map(t=>{let n=t.trim();return Ye.includes(n)?{name:n,mesh:n}:{name:n}}):lt(`modes:
${r.replace(/^/gm,"  ")}`,e).modes}async function ln(r,e,t,n,s){let i=c=>c.filter(p=>p.verdict!=="invalid"&&p.run.id!==s),o=t.baseRef;if(o){if(t.mergeBase){let p=i(await r.list({suite:e,branch:o,commit:t.mergeBase,limit:n}));if(p.length>0)return{basis:"merge-base",branch:o,commit:t.mergeBase,runs:p}}let c=i(await r.list({suite:e,branch:o,limit:n}));return c.length>0?{basis:"base-branch-latest",branch:o,runs:c}:void 0}if(!t.branch)return;let a=i(await r.list({suite:e,branch:t.branch,limit:n+(s?1:0)})).slice(0,n);return a.length>0?{basis:"branch-latest",branch:t.branch,runs:a}:void 0}import{readdir as ir,readFile as sr,stat as ft}from"node:fs/promises";import{join as Pe,resolve as or}from"node:path";var rr={1:({analysis:r,...e})=>e},O=class extends m{constructor(t,n){super(`${t}: ${n}`);this.path=t;this.name="ResultsFormatError"}path};function nr(r,e){if(typeof r!="object"||r===null||Array.isArray(r))throw new O(e,"is not a mesh-perf results file (expected a JSON object)");let t=r,n=t.schemaVersion;if(typeof n!="number"||!Number.isInteger(n)||n<1)throw new O(e,`has no valid schemaVersion (got ${JSON.stringify(n)}, expected an integer 1..${2})`);if(n>2)throw new O(e,`has schemaVersion ${n}, newer than this mesh-perf understands (${2}); upgrade mesh-perf to read it`);for(let s=n;s<2;s++){let i=rr[s];if(!i)throw new O(e,`schemaVersion ${s} has no migration to ${s+1}`);t={...i(t),schemaVersion:s+1}}if(!Array.isArray(t.modes)||typeof t.run!="object")throw new O(e,'is missing "modes" or "run"; it does not look like a mesh-perf results file');return t}function v(r,e){let t;try{t=JSON.parse(r)}catch(n){throw new O(e,`is not valid JSON (${n.message})`)}return nr(t,e)}async function ar(r){let e=await ft(r).catch(()=>{});if(!e)throw new m(`--results ${r} does not exist; expected a results.json or the folder a run wrote (mesh-perf-results/<run-id>)`);if(e.isFile())return[r];let t=Pe(r,"results.json");if(await pt(t))return[t];let n=[];for(let s of(await ir(r,{withFileTypes:!0})).sort((i,o)=>i.name.localeCompare(o.name)))s.isDirectory()&&await pt(Pe(r,s.name,"results.json"))&&n.push(Pe(r,s.name,"results.json"));if(n.length===0)throw new m(`--results ${r} holds no results.json (looked in the folder and its subfolders)`);return n}async function xn(r,e){let t=[];for(let n of r)for(let s of await ar(or(e,n)))t.push({file:s,result:v(await sr(s,"utf8"),s)});return t}async function pt(r){return ft(r).then(e=>e.isFile(),()=>!1)}import{existsSync as ee,statSync as Br}from"node:fs";import{join as ve,resolve as Ge}from"node:path";import{mkdir as Je,readdir as vr,readFile as Mt,rename as kr,rm as Nt,stat as _t,unlink as Er,writeFile as $r}from"node:fs/promises";import{dirname as Pr,join as Be,resolve as Dt,sep as Ar}from"node:path";var w=class extends A{constructor(t,n,s){super(`history store ${t}: ${n} ${s}. Nothing was published. Restore the file from the branch history (git log -- ${n}), or delete it to have it rebuilt (an index is rebuilt from the run files; a deleted run file is dropped)`);this.store=t;this.path=n;this.name="StoreCorruptError"}store;path},ae=class extends m{constructor(e,t){super(`history store ${e} already holds files that are not a mesh-perf history (e.g. ${t.slice(0,3).join(", ")}), and has no mesh-perf.json marker. Nothing was written. Use another branch/directory, or pass --adopt to add the history beside those files`),this.name="StoreNotAdoptedError"}},k=class extends A{constructor(e){super(e),this.name="StoreAccessError"}};var N="mesh-perf.json",P="index.html",mt="mesh-perf-dashboard.html",ht='<meta name="generator" content="mesh-perf">',Y="assets/chart.umd.min.js",Ae="assets/report.css",Te="assets/report.js",Oe=".nojekyll",B="runs",Ie="data";function I(r){if(!/^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/.test(r)||r.includes(".."))throw new m(`suite name ${JSON.stringify(r)} cannot be used as a folder in the history store; expected letters, digits, '.', '_' and '-' (\u2264 100 chars), such as "nightly"`);return r}function Q(r){return`${B}/${I(r)}`}function _(r){return`${Q(r)}/index.json`}function q(r){return`${Ie}/${I(r)}.js`}function ur(r){let e=new Date(r);if(Number.isNaN(e.getTime()))throw new m(`run.startedAt ${JSON.stringify(r)} is not an ISO date; cannot file the run in history`);return e.toISOString().replace(/[-:]/g,"").replace(/\.\d+Z$/,"Z")}function dr(r){return r.replace(/[^A-Za-z0-9._-]+/g,"-").replace(/^[-.]+|[-.]+$/g,"").slice(0,80)||"run"}function cr(r){let e=new Date(r.run.startedAt).getUTCFullYear();return`${Q(r.run.suite)}/${e}/${ur(r.run.startedAt)}-${dr(r.run.id)}`}function Ce(r){return`${cr(r)}.json`}function D(r){return r.replace(/\.json$/,".html")}function gt(r){let e=r.split("/").length-1;return e===0?"./":"../".repeat(e)}function yt(r,e){let t=`${Q(e)}/`;return r.startsWith(t)&&/^\d{4}\/[^/]+\.json$/.test(r.slice(t.length))}var Me="mesh-perf-history";function bt(){return{schemaVersion:1,kind:Me,suites:[]}}function ue(r){let e;try{e=JSON.parse(r)}catch(s){return{ok:!1,reason:`is not valid JSON (${s.message})`}}if(typeof e!="object"||e===null||Array.isArray(e))return{ok:!1,reason:"is not a JSON object"};let t=e;if(t.kind!==Me)return{ok:!1,reason:`has kind ${JSON.stringify(t.kind)}, expected "${Me}"`};let n=t.schemaVersion;return typeof n!="number"||!Number.isInteger(n)||n<1?{ok:!1,reason:`has no valid schemaVersion (got ${JSON.stringify(n)})`}:n>1?{ok:!1,reason:`has schemaVersion ${n}, newer than this mesh-perf understands (1); upgrade mesh-perf`}:Array.isArray(t.suites)?{ok:!0,marker:{...t,schemaVersion:1}}:{ok:!1,reason:'has no "suites" list'}}function wt(r){let e=[...r.suites].sort((t,n)=>t.name<n.name?-1:1);return`${JSON.stringify({...r,suites:e},null,2)}
`}var X=1,Ne="mesh-perf-suite-index",xt=.95,lr=["p50","p90","p95","p99","p999","max"];function St(r){return{schemaVersion:X,kind:Ne,suite:r,ciLevel:xt,runs:[]}}function C(r,e,t,n){let s={};for(let a of qe(r,xt)){let c={};for(let p of lr){let u=a.latency[p];u&&(c[p]=[H(u.median),H(u.low),H(u.high)])}a.achievedRps&&(c.rps=[H(a.achievedRps.median),H(a.achievedRps.low),H(a.achievedRps.high)]),(s[a.profile]??={})[a.mode]={n:a.repetitions,valid:a.validRepetitions,s:c}}let i=r.run.git??{},o={id:r.run.id,file:e,report:t,blob:n,v:r.schemaVersion,startedAt:r.run.startedAt,verdict:r.verdict,platform:r.run.platform,invalidReps:Xe(r),tl:fr(r),baseline:r.baseline,modes:s};return i.sha&&(o.sha=i.sha),i.branch&&(o.branch=i.branch),i.event&&(o.event=i.event),i.pullRequest!==void 0&&(o.pr=i.pullRequest),i.mergeBase&&(o.mergeBase=i.mergeBase),i.baseRef&&(o.baseRef=i.baseRef),i.repository&&(o.repository=i.repository),r.run.machine?.runnerClass&&(o.runnerClass=r.run.machine.runnerClass),o}function pr(r){return[...r].sort((e,t)=>e.startedAt<t.startedAt?-1:e.startedAt>t.startedAt?1:e.id<t.id?-1:e.id>t.id?1:0)}function de(r){let e=JSON.stringify({schemaVersion:r.schemaVersion,kind:r.kind,suite:r.suite,ciLevel:r.ciLevel}),t=pr(r.runs).map(n=>JSON.stringify(n));return`${e.slice(0,-1)},"runs":[${t.length?`
${t.join(`,
`)}
`:""}]}
`}function Rt(r,e){let t;try{t=JSON.parse(r)}catch(i){return{ok:!1,reason:`is not valid JSON (${i.message})`}}if(typeof t!="object"||t===null||Array.isArray(t))return{ok:!1,reason:"is not a JSON object"};let n=t,s=n.schemaVersion;if(typeof s!="number"||!Number.isInteger(s)||s<1)return{ok:!1,reason:`has no valid schemaVersion (got ${JSON.stringify(s)}, expected 1..${X})`};if(s>X)return{ok:!1,reason:`has schemaVersion ${s}, newer than this mesh-perf understands (${X}); upgrade mesh-perf`};if(n.kind!==Ne)return{ok:!1,reason:`has kind ${JSON.stringify(n.kind)}, expected "${Ne}"`};if(n.suite!==e)return{ok:!1,reason:`belongs to suite ${JSON.stringify(n.suite)}, expected "${e}"`};if(!Array.isArray(n.runs))return{ok:!1,reason:'has no "runs" list'};for(let[i,o]of n.runs.entries()){let a=o;if(!a||typeof a.id!="string"||typeof a.file!="string"||typeof a.blob!="string"||typeof a.startedAt!="string"||typeof a.modes!="object")return{ok:!1,reason:`has a malformed entry at runs[${i}] (expected id, file, blob, startedAt, modes)`}}return{ok:!0,index:{...n,schemaVersion:X}}}function H(r){return!Number.isFinite(r)||r===0?r:Number(r.toPrecision(5))}function fr(r){return r.modes.some(e=>e.repetitions.some(t=>(t.timeline?.length??0)>0))}async function U(r,e,t){let n=_(e),s=await r.list(`${Q(e)}/`),i=new Map;for(let f of s)yt(f,e)&&i.set(f,await r.blob(f));let o=[],a=St(e),c=!1,p=s.includes(n)?await r.read(n):void 0;if(p!==void 0){let f=Rt(p,e);if(!f.ok)throw new w(t,n,f.reason);a=f.index}else i.size>0&&(o.push(`${n} is missing; rebuilding it from the run files`),c=!0);let u=new Map(a.runs.map(f=>[f.file,f])),h=[];for(let f of a.runs)i.get(f.file)===f.blob?h.push(f):i.has(f.file)||(o.push(`${f.file} is listed in ${n} but missing; dropping it from the index`),c=!0);let d=[...i].filter(([f,g])=>u.get(f)?.blob!==g).map(([f])=>f),l=new Map;if(d.length>0){let f=await r.readMany(d);for(let g of d){let y=f.get(g);if(y===void 0)throw new w(t,g,"could not be read");let x;try{x=v(y,g)}catch(S){throw new w(t,g,T(S).replace(`${g}: `,""))}x.run.suite!==e&&o.push(`${g} says suite ${JSON.stringify(x.run.suite)} but is filed under "${e}"`),l.set(g,x),h.push(C(x,g,D(g),i.get(g))),c=!0}}return{suite:e,index:{...a,runs:mr(h,o)},files:i,reread:l,indexChanged:c,warnings:o}}function mr(r,e){let t=new Map;for(let n of r){let s=t.get(n.id);s&&e.push(`run ${n.id} is stored twice (${s.file}, ${n.file}); indexing ${s.file>n.file?s.file:n.file}`),(!s||n.file>s.file)&&t.set(n.id,n)}return[...t.values()]}function hr(r,e){return!(e.branch!==void 0&&r.branch!==e.branch||e.commit!==void 0&&r.sha!==e.commit||e.runnerClass!==void 0&&r.runnerClass!==e.runnerClass||e.excludeRunId!==void 0&&r.id===e.excludeRunId)}async function gr(r,e,t){let n=await r.read(N);if(n===void 0)return[];let s=ue(n);if(!s.ok)throw new w(t,N,s.reason);let o=(await U(r,I(e.suite),t)).index.runs.filter(a=>hr(a,e)).sort((a,c)=>a.startedAt<c.startedAt?1:a.startedAt>c.startedAt?-1:a.id<c.id?1:-1);return e.limit!==void 0?o.slice(0,Math.max(0,e.limit)):o}async function ce(r,e,t){let n=await gr(r,e,t),s=await r.readMany(n.map(i=>i.file));return n.map(i=>{let o=s.get(i.file);if(o===void 0)throw new w(t,i.file,"is listed in the index but could not be read");try{return v(o,i.file)}catch(a){throw new w(t,i.file,T(a).replace(`${i.file}: `,""))}})}function _e(r,e="history.keep"){let t=/^(\d+)(d|runs)$/.exec(r.trim()),n=t?Number(t[1]):NaN;if(!t||!Number.isSafeInteger(n)||n<1)throw new m(`${e}: expected "<N>d" (days, e.g. "365d") or "<N>runs" (e.g. "1000runs") with N \u2265 1, got ${JSON.stringify(r)}`);return t[2]==="d"?{kind:"age",days:n}:{kind:"count",runs:n}}function L(r,e,t){let n=[...r].sort((i,o)=>i.startedAt<o.startedAt?1:i.startedAt>o.startedAt?-1:i.id<o.id?1:-1);if(e.kind==="count")return n.slice(e.runs);let s=t.getTime()-e.days*864e5;return n.filter(i=>new Date(i.startedAt).getTime()<s)}function le(r){return r.kind==="age"?`runs older than ${r.days} days`:`all but the newest ${r.runs} runs per suite`}var vt="30d";function kt(r,e="history.keepTimelines"){if(r.trim()!=="all"){if(r.trim()==="none")return{kind:"count",runs:0};try{return _e(r,e)}catch{throw new m(`${e}: expected "<N>d" (e.g. "30d"), "<N>runs", "all" or "none", got ${JSON.stringify(r)}`)}}}import{createHash as yr}from"node:crypto";function De(){return{writes:new Map,deletes:new Set}}function Et(r){return r.writes.size>0||r.deletes.size>0}function E(r){let e=typeof r=="string"?Buffer.from(r,"utf8"):r;return yr("sha1").update(`blob ${e.length}\0`).update(e).digest("hex")}function Le(r){return{...r,modes:r.modes.map(e=>({...e,repetitions:e.repetitions.map(t=>({...t,timeline:[]}))}))}}async function $t(r,e,t,n,s,i,o=new Map){let a=L(e.runs,t,n).filter(u=>u.tl!==!1);if(a.length===0)return[];let c=await r.readMany(a.filter(u=>!o.has(u.file)).map(u=>u.file)),p=[];for(let u of a){let h=o.get(u.file);if(!h){let f=c.get(u.file);if(f===void 0)throw new w(s,u.file,"is listed in the index but could not be read");try{h=v(f,u.file)}catch(g){throw new w(s,u.file,T(g).replace(`${u.file}: `,""))}}let d=Le(h),l=i(d);p.push({entry:{...C(d,u.file,u.report,E(l)),tl:!1},result:d,text:l})}return p}var Pt=String.raw`
(function () {
  'use strict';
  var config = JSON.parse(document.getElementById('mesh-perf-config').textContent);
  Chart.defaults.animation = false;
  Chart.defaults.maintainAspectRatio = false;
  Chart.defaults.font.family = getComputedStyle(document.body).fontFamily;
  window.meshPerfData = window.meshPerfData || {};
  window.__meshPerfRenders = 0;

  var INVALID = '#9a6700';
  var charts = [];
  var suite = null;
  var state = readHash();

  function $(id) { return document.getElementById(id); }
  function readHash() {
    var out = {};
    location.hash.replace(/^#/, '').split('&').forEach(function (kv) {
      var i = kv.indexOf('=');
      if (i > 0) out[decodeURIComponent(kv.slice(0, i))] = decodeURIComponent(kv.slice(i + 1));
    });
    return out;
  }
  function writeHash() {
    var parts = Object.keys(state).filter(function (k) { return state[k] !== undefined && state[k] !== ''; })
      .map(function (k) { return encodeURIComponent(k) + '=' + encodeURIComponent(state[k]); });
    try { history.replaceState(null, '', '#' + parts.join('&')); } catch (err) { /* some file:// setups forbid it; the view still works */ }
  }
  function status(text) { $('status').textContent = text; }
  function option(value, label, selected) {
    var o = document.createElement('option');
    o.value = value; o.textContent = label; o.selected = !!selected;
    return o;
  }
  function fill(select, values, current, allLabel) {
    select.innerHTML = '';
    if (allLabel) select.appendChild(option('', allLabel, !current));
    values.forEach(function (v) { select.appendChild(option(v, v, v === current)); });
  }
  function color(i) { return config.palette[i % config.palette.length]; }
  function fmt(v) { return v === undefined || v === null ? '–' : (Math.abs(v) >= 10 ? v.toFixed(1) : v.toFixed(3)); }
  function day(ms) { return new Date(ms).toISOString().slice(0, 10); }
  function commitUrl(entry) { return entry.repository && entry.sha ? 'https://github.com/' + entry.repository + '/commit/' + entry.sha : null; }

  function loadSuite(name, done) {
    if (window.meshPerfData[name]) return done(window.meshPerfData[name]);
    var script = document.createElement('script');
    script.src = config.dataPrefix + encodeURIComponent(name) + '.js';
    script.onload = function () { done(window.meshPerfData[name]); };
    script.onerror = function () { status('Could not load ' + script.src + '.'); };
    document.head.appendChild(script);
  }

  // In order of first appearance: modes keep the order the runs list them in (as in run reports).
  function keysOf(runs, pick) {
    var seen = {}, out = [];
    runs.forEach(function (r) { pick(r).forEach(function (k) { if (k && !seen[k]) { seen[k] = true; out.push(k); } }); });
    return out;
  }
  var DAY = 86400000;
  var STEPS = [1, 2, 7, 14, 30, 61, 91, 182, 365, 730];
  // Date ticks on whole UTC days, a step that gives at most ~10 labels.
  function dayTicks(axis) {
    var span = (axis.max - axis.min) / DAY;
    var step = STEPS.filter(function (s) { return span / s <= 10; })[0] || 730;
    var first = Math.ceil(axis.min / DAY) * DAY;
    var ticks = [];
    for (var t = first; t <= axis.max; t += step * DAY) ticks.push({ value: t });
    axis.ticks = ticks;
  }

  function selectSuite(name) {
    state.suite = name;
    loadSuite(name, function (index) {
      if (!index) { status('No data for suite ' + name + '.'); return; }
      suite = index;
      var runs = index.runs;
      suite.profiles = keysOf(runs, function (r) { return Object.keys(r.modes); }).sort();
      suite.modeNames = keysOf(runs, function (r) {
        var out = []; Object.keys(r.modes).forEach(function (p) { out = out.concat(Object.keys(r.modes[p])); }); return out;
      });
      suite.branches = keysOf(runs, function (r) { return [r.branch]; }).sort();
      if (state.profile && suite.profiles.indexOf(state.profile) < 0) state.profile = '';
      if (state.branch && suite.branches.indexOf(state.branch) < 0) state.branch = '';
      fill($('f-profile'), suite.profiles, state.profile, 'all profiles');
      fill($('f-branch'), suite.branches, state.branch, 'all branches');
      var hidden = (state.hide || '').split(',');
      var box = $('f-modes');
      box.innerHTML = '';
      suite.modeNames.forEach(function (m, i) {
        var label = document.createElement('label');
        var input = document.createElement('input');
        input.type = 'checkbox'; input.value = m; input.checked = hidden.indexOf(m) < 0;
        input.addEventListener('change', onModes);
        label.appendChild(input);
        var swatch = document.createElement('span');
        swatch.textContent = ' ' + m;
        swatch.style.color = color(i);
        label.appendChild(swatch);
        box.appendChild(label);
      });
      render();
    });
  }

  function onModes() {
    var hidden = [];
    Array.prototype.forEach.call($('f-modes').querySelectorAll('input'), function (i) { if (!i.checked) hidden.push(i.value); });
    state.hide = hidden.join(',');
    render();
  }

  function visibleRuns() {
    var runs = suite.runs.filter(function (r) { return !state.branch || r.branch === state.branch; });
    var days = Number(state.range || '365');
    if (days > 0 && runs.length) {
      var newest = Date.parse(runs[runs.length - 1].startedAt);
      runs = runs.filter(function (r) { return Date.parse(r.startedAt) >= newest - days * 86400000; });
    }
    return runs;
  }

  function render() {
    writeHash();
    charts.forEach(function (c) { c.destroy(); });
    charts = [];
    var container = $('charts');
    container.innerHTML = '';
    var runs = visibleRuns();
    var stat = state.stat || 'p99';
    var byCommit = state.axis === 'commit';
    var hidden = (state.hide || '').split(',');
    var profiles = state.profile ? [state.profile] : suite.profiles;
    status(runs.length + ' of ' + suite.runs.length + ' runs of suite ' + suite.suite +
      (runs.length ? ' (' + day(Date.parse(runs[0].startedAt)) + ' … ' + day(Date.parse(runs[runs.length - 1].startedAt)) + ')' : ''));
    profiles.forEach(function (profile, pi) {
      var figure = document.createElement('figure');
      var caption = document.createElement('figcaption');
      caption.className = 'chart-title';
      caption.textContent = suite.suite + ' · ' + profile + ' · ' + (stat === 'p999' ? 'p99.9' : stat) + ' (ms)';
      var box = document.createElement('div');
      box.className = 'chart';
      var canvas = document.createElement('canvas');
      canvas.id = 'trend-' + pi;
      canvas.setAttribute('role', 'img');
      canvas.setAttribute('aria-label', caption.textContent);
      box.appendChild(canvas);
      figure.appendChild(caption);
      figure.appendChild(box);
      container.appendChild(figure);
      charts.push(trendChart(canvas, runs, profile, stat, byCommit, hidden));
    });
    renderTable(runs);
    window.__meshPerfRenders += 1;
    window.__meshPerfRendered = performance.now();
  }

  function trendChart(canvas, runs, profile, stat, byCommit, hidden) {
    var datasets = [];
    suite.modeNames.forEach(function (mode, mi) {
      if (hidden.indexOf(mode) >= 0) return;
      var points = [];
      runs.forEach(function (r, ri) {
        var m = r.modes[profile] && r.modes[profile][mode];
        var s = m && m.s[stat];
        if (!s) return;
        points.push({ x: byCommit ? ri : Date.parse(r.startedAt), y: s[0], lo: s[1], hi: s[2], run: r,
          invalid: r.verdict === 'invalid' || m.valid < m.n });
      });
      if (!points.length) return;
      var c = color(mi);
      datasets.push({ band: true, label: mode + ' low', data: points.map(function (p) { return { x: p.x, y: p.lo }; }),
        borderWidth: 0, pointRadius: 0, pointHitRadius: 0, fill: false });
      datasets.push({ band: true, label: mode + ' high', data: points.map(function (p) { return { x: p.x, y: p.hi }; }),
        borderWidth: 0, pointRadius: 0, pointHitRadius: 0, fill: '-1', backgroundColor: c + '2e' });
      datasets.push({ label: mode, data: points, borderColor: c, backgroundColor: c, borderWidth: 1.5, tension: 0, pointHitRadius: 5,
        pointStyle: function (ctx) { var p = ctx.raw; return p && p.invalid ? 'crossRot' : 'circle'; },
        pointRadius: function (ctx) { var p = ctx.raw; return p && p.invalid ? 6 : (points.length > 200 ? 1.5 : 3); },
        pointBorderColor: function (ctx) { var p = ctx.raw; return p && p.invalid ? INVALID : c; },
        pointBorderWidth: function (ctx) { var p = ctx.raw; return p && p.invalid ? 2 : 1; } });
    });
    return new Chart(canvas, {
      type: 'line',
      data: { datasets: datasets },
      options: {
        parsing: false,
        normalized: true,
        spanGaps: true,
        interaction: { mode: 'nearest', intersect: false },
        scales: {
          x: { type: 'linear', title: { display: true, text: byCommit ? 'commit (run order)' : 'date (UTC)' },
            afterBuildTicks: byCommit ? undefined : dayTicks,
            ticks: { maxTicksLimit: 10, autoSkip: byCommit, callback: function (v) {
              if (!byCommit) return day(v);
              var r = runs[v]; return r && Number.isInteger(v) ? (r.sha || r.id).slice(0, 7) : '';
            } } },
          y: { beginAtZero: false, title: { display: true, text: 'latency (ms)' } }
        },
        plugins: {
          legend: { labels: { filter: function (item, data) { return !data.datasets[item.datasetIndex].band; } } },
          tooltip: {
            filter: function (item) { return !item.dataset.band; },
            callbacks: {
              title: function (items) {
                var r = items.length && items[0].raw.run; if (!r) return '';
                return day(Date.parse(r.startedAt)) + ' · ' + (r.sha ? r.sha.slice(0, 7) : r.id) + (r.branch ? ' · ' + r.branch : '') + ' · ' + r.verdict;
              },
              label: function (ctx) { var p = ctx.raw; return ctx.dataset.label + ': ' + fmt(p.y) + ' [' + fmt(p.lo) + ', ' + fmt(p.hi) + ']' + (p.invalid ? ' (invalid)' : ''); }
            }
          }
        },
        onClick: function (event, elements, chart) {
          // Every point under the pointer, then only the run medians (a band edge can sit on the same pixel).
          var hits = chart.getElementsAtEventForMode(event, 'point', { intersect: true }, true)
            .filter(function (h) { return !chart.data.datasets[h.datasetIndex].band; });
          if (!hits.length) return;
          var p = chart.data.datasets[hits[0].datasetIndex].data[hits[0].index];
          if (p && p.run) location.href = p.run.report;
        }
      }
    });
  }

  function renderTable(runs) {
    var body = $('runs').querySelector('tbody');
    body.innerHTML = '';
    runs.slice(-20).reverse().forEach(function (r) {
      var tr = document.createElement('tr');
      function cell(content) { var td = document.createElement('td'); td.className = 'text'; if (typeof content === 'string') td.textContent = content; else td.appendChild(content); tr.appendChild(td); return td; }
      function link(href, text) { var a = document.createElement('a'); a.href = href; a.textContent = text; return a; }
      cell(r.startedAt.replace('T', ' ').slice(0, 16));
      var badge = document.createElement('span'); badge.className = 'badge ' + r.verdict; badge.textContent = r.verdict.toUpperCase(); cell(badge);
      cell(r.branch || '');
      var url = commitUrl(r);
      cell(url ? link(url, (r.sha || '').slice(0, 7)) : (r.sha || '').slice(0, 7));
      var links = cell('');
      links.appendChild(link(r.report, 'report'));
      links.appendChild(link(r.file, 'json'));
      body.appendChild(tr);
    });
  }

  function bind(id, key) {
    var el = $(id);
    if (state[key] !== undefined) el.value = state[key];
    el.addEventListener('change', function () { state[key] = el.value; if (key === 'suite') selectSuite(el.value); else render(); });
  }

  if (!config.suites.length) {
    status('No runs published yet. Publish one with: mesh-perf publish --results <dir> --store <repo>');
    window.__meshPerfRendered = performance.now();
    return;
  }
  fill($('f-suite'), config.suites.map(function (s) { return s.name; }), state.suite);
  bind('f-suite', 'suite'); bind('f-profile', 'profile'); bind('f-stat', 'stat'); bind('f-branch', 'branch');
  bind('f-range', 'range'); bind('f-axis', 'axis');
  selectSuite(state.suite && config.suites.some(function (s) { return s.name === state.suite; }) ? state.suite : config.suites[0].name);
})();
`;var br=["p50","p90","p95","p99","p999","max"];function At(r){let e=r.title??"mesh-perf trends",t={suites:r.marker.suites,dataPrefix:r.dataPrefix,palette:et};return`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="mesh-perf">
<link rel="icon" href="data:,">
<title>${ne(e)}</title>
<style>${ie}
.modes label { margin-right: 10px; color: var(--fg); }
#runs td.text a { margin-right: 8px; }
.legend-note { color: var(--muted); font-size: 12px; }
</style>
</head>
<body>
<header>
<h1>${ne(e)}</h1>
<div class="meta"><span>Median over repetitions per run; shaded band: its interval. <span class="legend-note">\u2715 = invalid run or repetitions (reported, never compared).</span> Click a point to open its run report.</span></div>
</header>
<main>
<section id="filters" class="controls">
<label for="f-suite">suite</label><select id="f-suite"></select>
<label for="f-profile">load profile</label><select id="f-profile"></select>
<label for="f-stat">percentile</label><select id="f-stat">${br.map(n=>`<option value="${n}"${n==="p99"?" selected":""}>${n==="p999"?"p99.9":n}</option>`).join("")}</select>
<label for="f-branch">branch</label><select id="f-branch"></select>
<label for="f-range">range</label><select id="f-range"><option value="90">90 days</option><option value="365" selected>1 year</option><option value="0">all</option></select>
<label for="f-axis">x axis</label><select id="f-axis"><option value="time" selected>time</option><option value="commit">commits</option></select>
<span class="modes" id="f-modes"></span>
</section>
<p id="status" class="note" role="status"></p>
<section id="charts" class="grid"></section>
<section id="latest"><h2>Latest runs</h2><table id="runs"><thead><tr><th class="text">started</th><th class="text">verdict</th><th class="text">branch</th><th class="text">commit</th><th class="text">links</th></tr></thead><tbody></tbody></table></section>
</main>
<script type="application/json" id="mesh-perf-config">${rt(t)}</script>
<script src="${ne(r.chartJsSrc)}"></script>
<script>${Pt}</script>
</body>
</html>
`}function Tt(r){return`(window.meshPerfData = window.meshPerfData || {})[${JSON.stringify(r.suite)}] = ${JSON.stringify(r)};
`}function z(r,e,t=P){let n=gt(e);return nt(r,{chartJs:{src:`${n}${Y}`},assets:{css:`${n}${Ae}`,js:`${n}${Te}`},dashboardHref:`${n}${t}#suite=${encodeURIComponent(r.run.suite)}`})}async function pe(r,e){if(e.dashboard)return e.dashboard;let t=await r.read(P);return t!==void 0&&!t.includes(ht)?mt:P}function Ot(r){return At({marker:r,chartJsSrc:Y,dataPrefix:`${Ie}/`})}function It(){return new Map([[Ae,ie],[Te,tt]])}function fe(r){return Tt(r)}function Ct(r){let e=r.runs,t=new Set,n=new Set,s=new Set;for(let a of e){for(let[c,p]of Object.entries(a.modes)){t.add(c);for(let u of Object.keys(p))n.add(u)}a.branch&&s.add(a.branch)}let i=e.map(a=>a.startedAt).sort(),o={name:r.suite,runs:e.length,profiles:[...t].sort(),modes:[...n],branches:[...s].sort()};return i.length&&(o.first=i[0],o.last=i[i.length-1]),o}function G(r){return`${JSON.stringify(r,(e,t)=>typeof t=="number"&&!Number.isInteger(t)&&Number.isFinite(t)?Number(t.toPrecision(6)):t)}
`}async function Fe(r,e,t){let n=await r.read(N);if(n===void 0){let i=(await r.list("")).filter(o=>o!==Oe);if(i.length>0&&!t)throw new ae(e,i);return bt()}let s=ue(n);if(!s.ok)throw new w(e,N,s.reason);return s.marker}async function me(r,e,t){let n=await Fe(r,t.storeLabel,t.adopt??!1),s=await pe(r,n);s!==P&&(n.dashboard=s);let i=Rr(e),o={changes:De(),added:[],unchanged:[],pruned:[],compacted:[],warnings:[]},a=[...new Set(i.map(u=>I(u.run.suite)))].sort(),c=new Map;for(let u of a){let h=await U(r,u,t.storeLabel);o.warnings.push(...h.warnings),c.set(u,h)}for(let u of i){let h=c.get(u.run.suite),d=Ce(u),l=G(u),f=E(l),g=h.index.runs.find(x=>x.id===u.run.id);if(g&&g.file===d&&g.blob===f){o.unchanged.push(d);continue}g&&g.file!==d&&(o.changes.deletes.add(g.file),o.changes.deletes.add(g.report));let y=D(d);o.changes.writes.set(d,l),o.changes.writes.set(y,z(JSON.parse(l),y,s)),h.index.runs=[...h.index.runs.filter(x=>x.id!==u.run.id),C(u,d,y,f)],h.indexChanged=!0,o.added.push(d)}for(let u of c.values()){for(let[h,d]of u.reread){let l=D(h);o.changes.writes.has(l)||o.changes.writes.set(l,z(d,l,s))}if(t.retention&&wr(u,t.retention,t.now,o),t.timelineRetention){let h=new Map(i.filter(d=>d.run.suite===u.suite).map(d=>[Ce(d),d]));for(let d of await $t(r,u.index,t.timelineRetention,t.now,t.storeLabel,G,h))o.changes.writes.set(d.entry.file,d.text),o.changes.writes.set(d.entry.report,z(JSON.parse(d.text),d.entry.report,s)),u.index.runs=u.index.runs.map(l=>l.id===d.entry.id?d.entry:l),u.indexChanged=!0,o.compacted.push(d.entry.file)}u.indexChanged&&xr(u,o.changes)}let p=je(await r.list(`${B}/`),n,[...c.values()],t);for(let[u,h]of p.writes)o.changes.writes.set(u,h);return Sr(o,r)}function wr(r,e,t,n){let s=L(r.index.runs,e,t);if(s.length===0)return;let i=new Set(s.map(o=>o.id));for(let o of s)n.changes.writes.delete(o.file),n.changes.writes.delete(o.report),n.changes.deletes.add(o.file),n.changes.deletes.add(o.report),n.pruned.push(o.file);r.index.runs=r.index.runs.filter(o=>!i.has(o.id)),r.indexChanged=!0,n.warnings.push(`retention (${le(e)}) removed ${s.length} run(s) of suite ${r.suite}`)}function xr(r,e){e.writes.set(_(r.suite),de(r.index)),e.writes.set(q(r.suite),fe(r.index))}function je(r,e,t,n){let s=De(),i=new Map(e.suites.map(a=>[a.name,a]));for(let a of t)a.index.runs.length>0?i.set(a.suite,Ct(a.index)):i.delete(a.suite);for(let a of r){let c=new RegExp(`^${B}/([^/]+)/index\\.json$`).exec(a);c&&!i.has(c[1])&&i.set(c[1],{name:c[1],runs:0,profiles:[],modes:[],branches:[]})}let o={...e,suites:[...i.values()]};s.writes.set(N,wt(o)),s.writes.set(o.dashboard??P,Ot(o)),s.writes.set(Y,n.chartJs);for(let[a,c]of It())s.writes.set(a,c);return s.writes.set(Oe,""),s}async function Sr(r,e){for(let[t,n]of r.changes.writes)await e.blob(t)===E(n)&&r.changes.writes.delete(t);for(let t of r.changes.deletes)await e.blob(t)===void 0&&r.changes.deletes.delete(t);return r}function Rr(r){let e=new Map;for(let t of r){let n=`${t.run.suite}\0${t.run.id}`,s=e.get(n);if(s&&G(s)!==G(t))throw new m(`two results files carry run id ${JSON.stringify(t.run.id)} of suite ${t.run.suite} with different content; publish them separately or fix the ids`);e.set(n,t)}return[...e.values()]}async function V(r,e,t){let n=await Fe(r,e.storeLabel,e.adopt??!1),s=await pe(r,n);s!==P&&(n.dashboard=s);let i={suites:[],runs:0,reports:0,written:0,pruned:[],compacted:[],warnings:[]},o=async(d,l)=>{!e.includeAll&&await r.blob(d)===E(l)||(i.written++,await t.write(d,l))},a=await r.list(`${B}/`),c=new Set([...n.suites.map(d=>d.name),...a.map(d=>d.split("/")[1]).filter(Boolean)]),p=[],u=new Set;for(let d of[...c].sort()){let l=await U(r,d,e.storeLabel);if(i.warnings.push(...l.warnings),e.retention){let y=L(l.index.runs,e.retention,e.now);if(y.length>0){let x=new Set(y.map(S=>S.id));l.index.runs=l.index.runs.filter(S=>!x.has(S.id));for(let S of y){for(let b of[S.file,S.report])await r.blob(b)!==void 0&&await t.remove(b);i.pruned.push(S.file)}i.warnings.push(`retention (${le(e.retention)}) removed ${y.length} run(s) of suite ${d}`)}}let f=new Set(e.timelineRetention?L(l.index.runs,e.timelineRetention,e.now).filter(y=>y.tl!==!1).map(y=>y.id):[]),g=e.chunk??200;for(let y=0;y<l.index.runs.length;y+=g){let x=l.index.runs.slice(y,y+g),S=await r.readMany(x.map(b=>b.file));for(let b of x){let Z=S.get(b.file);if(Z===void 0)throw new w(e.storeLabel,b.file,"could not be read");let F;try{F=v(Z,b.file)}catch(Bt){throw new w(e.storeLabel,b.file,T(Bt).replace(`${b.file}: `,""))}let W=D(b.file);b.report=W;let j=Z;f.has(b.id)&&(F=Le(F),j=G(F),Object.assign(b,C(F,b.file,W,E(j)),{tl:!1}),i.compacted.push(b.file)),await o(W,z(j===Z?F:JSON.parse(j),W,s)),u.add(W),(e.includeAll||j!==Z)&&(await o(b.file,j),u.add(b.file)),i.reports++,i.runs++}}await o(_(d),de(l.index)),await o(q(d),fe(l.index)),u.add(_(d)),u.add(q(d)),p.push(l),i.suites.push(d)}let h=je(a,n,p,e);for(let[d,l]of h.writes)await o(d,l),u.add(d);if(e.includeAll){let d=(await r.list("")).filter(l=>!u.has(l)&&!i.pruned.includes(l)&&!i.pruned.includes(l.replace(/\.html$/,".json")));for(let l=0;l<d.length;l+=200){let f=await r.readMany(d.slice(l,l+200));for(let[g,y]of f)await o(g,y)}}return i}var Lt=".mesh-perf.lock",Tr=10*6e4,he=class{constructor(e){this.options=e;this.root=Dt(e.root)}options;root;describe(){return`directory ${this.root}`}async list(e){return await Or(this.root)?ce(new K(this.root),e,this.describe()):[]}async publish(e){let t=await this.options.chartJs();for(let n of e)I(n.run.suite);return await this.ensureRoot(),this.withLock(async()=>{let n=new K(this.root),s=await me(n,e,{...this.planOptions(),chartJs:t}),i=new ge(this.root);for(let[o,a]of s.changes.writes)await i.write(o,a);for(let o of s.changes.deletes)await i.remove(o);return{attempts:1,added:s.added,unchanged:s.unchanged,pruned:s.pruned,compacted:s.compacted,warnings:s.warnings}})}async rebuild(){let e=await this.options.chartJs();return await this.ensureRoot(),this.withLock(async()=>{let t=new Map,n={write:async(o,a)=>{t.set(o,a)},remove:async o=>{t.set(o,null)}},s=await V(new K(this.root),{...this.planOptions(),chartJs:e},n),i=new ge(this.root);for(let[o,a]of t)await(a===null?i.remove(o):i.write(o,a));return s})}async exportSite(e){let t=await this.options.chartJs();return V(new K(this.root),{...this.planOptions(),chartJs:t,includeAll:!0},e)}planOptions(){return{storeLabel:this.describe(),adopt:this.options.adopt??!1,now:(this.options.now??(()=>new Date))(),...this.options.retention?{retention:this.options.retention}:{},...this.options.timelineRetention?{timelineRetention:this.options.timelineRetention}:{}}}async ensureRoot(){try{await Je(this.root,{recursive:!0})}catch(e){throw new k(`history store ${this.describe()}: cannot create the folder (${e.message})`)}}async withLock(e){let t=Be(this.root,Lt),n=Date.now()+(this.options.lockTimeoutMs??12e4);for(;;)try{await Je(t);break}catch(s){if(s.code!=="EEXIST")throw new k(`history store ${this.describe()}: cannot take the lock ${t} (${s.message})`);let i=Date.now()-await _t(t).then(o=>o.mtimeMs,()=>Date.now());if(i>Tr){this.options.log?.warn(`removing a stale lock ${t} (${Math.round(i/1e3)} s old)`),await Nt(t,{recursive:!0,force:!0});continue}if(Date.now()>n)throw new A(`history store ${this.describe()}: another publish holds ${t}; if none is running, delete that folder`);await new Promise(o=>setTimeout(o,100+Math.random()*200))}try{return await e()}finally{await Nt(t,{recursive:!0,force:!0})}}},K=class{constructor(e){this.root=e}root;files;blobs=new Map;async list(e){return this.files??=Ft(this.root,""),(await this.files).filter(t=>t.startsWith(e))}async blob(e){if(!this.blobs.has(e)){let t=await Mt(this.abs(e)).catch(()=>{});this.blobs.set(e,t===void 0?void 0:E(t))}return this.blobs.get(e)}async read(e){return Mt(this.abs(e),"utf8").catch(t=>{if(t.code!=="ENOENT")throw t})}async readMany(e){let t=new Map;for(let n of e){let s=await this.read(n);s!==void 0&&t.set(n,s)}return t}abs(e){return Be(this.root,...e.split("/"))}},ge=class{constructor(e){this.root=e}root;async write(e,t){let n=this.abs(e);await Je(Pr(n),{recursive:!0});let s=`${n}.tmp-${process.pid}-${Math.random().toString(36).slice(2)}`;await $r(s,t,"utf8"),await kr(s,n)}async remove(e){await Er(this.abs(e)).catch(t=>{if(t.code!=="ENOENT")throw t})}abs(e){let t=Dt(this.root,...e.split("/"));if(!t.startsWith(this.root+Ar)&&t!==this.root)throw new A(`refusing to write outside ${this.root}: ${e}`);return t}};async function Ft(r,e){let t=await vr(Be(r,e),{withFileTypes:!0}).catch(s=>{if(s.code==="ENOENT")return[];throw s}),n=[];for(let s of t){let i=e?`${e}/${s.name}`:s.name;s.name===Lt||s.name===".git"||s.name.includes(".tmp-")||(s.isDirectory()?n.push(...await Ft(r,i)):s.isFile()&&n.push(i))}return n.sort()}async function Or(r){return _t(r).then(e=>e.isDirectory(),()=>!1)}import{spawn as Ir}from"node:child_process";var $=class extends Error{constructor(t,n,s){super(`git ${t[0]??""} failed (exit ${n??"signal"}): ${s.trim().split(`
`).slice(-4).join(" | ")||"no output"}`);this.args=t;this.code=n;this.stderr=s;this.name="GitCommandError"}args;code;stderr},ye=class{secrets=[];configEnv={};constructor(e){if(e?.token){let t=Buffer.from(`x-access-token:${e.token}`).toString("base64");this.secrets.push(e.token,t),Object.assign(this.configEnv,{GIT_CONFIG_COUNT:"1",GIT_CONFIG_KEY_0:`http.${e.origin}.extraheader`,GIT_CONFIG_VALUE_0:`AUTHORIZATION: basic ${t}`})}}redact(e){let t=be(e);for(let n of this.secrets)n&&(t=t.split(n).join("***"));return t}async run(e,t){let{stdout:n}=await this.runRaw(e,t);return n.toString("utf8")}runRaw(e,t){let n=["-c","commit.gpgsign=false","-c","core.autocrlf=false","-c","core.quotepath=off",...e];return new Promise((s,i)=>{let o=Ir("git",n,{cwd:t.cwd,env:{...process.env,...this.configEnv,...t.env,GIT_TERMINAL_PROMPT:"0",GCM_INTERACTIVE:"never",GIT_SSH_COMMAND:process.env.GIT_SSH_COMMAND??"ssh -o BatchMode=yes",LC_ALL:"C"},stdio:["pipe","pipe","pipe"]}),a=[],c=[];o.stdout.on("data",u=>a.push(u)),o.stderr.on("data",u=>c.push(u));let p=setTimeout(()=>o.kill("SIGKILL"),t.timeoutMs??30*6e4);o.on("error",u=>{clearTimeout(p);let h=u.code==="ENOENT";i(new $(e,null,h?"git is not installed or not on PATH":u.message))}),o.on("close",u=>{clearTimeout(p);let h=this.redact(Buffer.concat(c).toString("utf8"));u===0?s({stdout:Buffer.concat(a),stderr:h}):i(new $(e.map(d=>this.redact(d)),u,`${h}${this.redact(Buffer.concat(a).toString("utf8").slice(0,4e3))}`))}),o.stdin.on("error",()=>{}),o.stdin.end(t.input??"")})}};function be(r){return r.replace(/([a-z][a-z0-9+.-]*:\/\/)[^/@\s]+@/gi,"$1***@")}function jt(r,e){let t=Math.min(5e3,200*2**Math.max(0,r-1));return Math.round(t/4+e()*t*.75)}import{mkdir as Cr,mkdtemp as Mr,rm as He,writeFile as Nr}from"node:fs/promises";import{tmpdir as _r}from"node:os";import{join as xe}from"node:path";var Dr="0000000000000000000000000000000000000000",we={name:"mesh-perf",email:"mesh-perf@users.noreply.github.com"},Se=class r{constructor(e,t,n,s){this.git=e;this.dir=t;this.branch=n;this.partial=s}git;dir;branch;partial;static async open(e,t,n,s){let i=await Mr(xe(_r(),"mesh-perf-store-"));try{await e.run(["init","--quiet","--bare",i],{cwd:i}),await e.run(["remote","add","origin",t],{cwd:i}),s.partial&&(await e.run(["config","remote.origin.promisor","true"],{cwd:i}),await e.run(["config","remote.origin.partialclonefilter","blob:none"],{cwd:i}),await e.run(["config","extensions.partialClone","origin"],{cwd:i}))}catch(o){throw await He(i,{recursive:!0,force:!0}),o}return new r(e,i,n,s.partial)}async close(){await He(this.dir,{recursive:!0,force:!0})}async fetch(){let e=`refs/remotes/origin/${this.branch}`;try{await this.git.run(["fetch","--quiet","--no-tags","--depth=1",...this.partial?["--filter=blob:none"]:[],"origin",`+refs/heads/${this.branch}:${e}`],{cwd:this.dir})}catch(t){if(t instanceof $&&/couldn't find remote ref|could not find remote ref/i.test(t.stderr))return;throw t}return(await this.git.run(["rev-parse","--verify",`${e}^{commit}`],{cwd:this.dir})).trim()}tree(e){return new ze(this.git,this.dir,e)}stage(){return new Ue(this.git,this.dir)}async commit(e,t,n){let s=this.stage();for(let[i,o]of t.writes)await s.write(i,o);for(let i of t.deletes)await s.remove(i);return s.commit(e,n)}async push(e){try{return await this.git.run(["push","--quiet","--porcelain","origin",`${e}:refs/heads/${this.branch}`],{cwd:this.dir}),"ok"}catch(t){if(t instanceof $&&Lr(t.stderr))return"rejected";throw t}}},Ue=class{constructor(e,t){this.git=e;this.dir=t;this.staging=xe(t,"mesh-perf-staging")}git;dir;lines=[];pending=[];counter=0;staging;async write(e,t){await Cr(this.staging,{recursive:!0});let n=xe(this.staging,String(this.counter++));await Nr(n,t,"utf8"),this.pending.push({path:e,file:n}),this.pending.length>=400&&await this.flush()}async remove(e){this.lines.push(`0 ${Dr}	${e}`)}async flush(){if(this.pending.length===0)return;let e=this.pending;this.pending=[];let t=(await this.git.run(["hash-object","-w","--no-filters","--stdin-paths"],{cwd:this.dir,input:`${e.map(n=>n.file).join(`
`)}
`})).trim().split(`
`);e.forEach((n,s)=>this.lines.push(`100644 ${t[s]}	${n.path}`)),await He(this.staging,{recursive:!0,force:!0})}async commit(e,t){await this.flush();let n={GIT_INDEX_FILE:xe(this.dir,"mesh-perf-index")},s={cwd:this.dir,env:n};await this.git.run(e?["read-tree",e]:["read-tree","--empty"],s),this.lines.length>0&&await this.git.run(["update-index","-z","--index-info"],{...s,input:this.lines.map(c=>`${c}\0`).join("")});let i=(await this.git.run(["write-tree"],s)).trim(),o={GIT_AUTHOR_NAME:process.env.GIT_AUTHOR_NAME??we.name,GIT_AUTHOR_EMAIL:process.env.GIT_AUTHOR_EMAIL??we.email,GIT_COMMITTER_NAME:process.env.GIT_COMMITTER_NAME??we.name,GIT_COMMITTER_EMAIL:process.env.GIT_COMMITTER_EMAIL??we.email},a=["commit-tree",i,...e?["-p",e]:[],"-F","-"];return(await this.git.run(a,{cwd:this.dir,env:o,input:t})).trim()}};function Lr(r){return/\[rejected\]|non-fast-forward|fetch first|failed to update ref|cannot lock ref|incorrect old value|stale info|reference already exists/i.test(r)}var ze=class{constructor(e,t,n){this.git=e;this.dir=t;this.commit=n}git;dir;commit;files;listing(){return this.files??=this.loadListing(),this.files}async loadListing(){let e=new Map;if(!this.commit)return e;let t=await this.git.run(["ls-tree","-r","-z","--full-tree",this.commit],{cwd:this.dir});for(let n of t.split("\0")){if(!n)continue;let s=n.indexOf("	"),[,i,o]=n.slice(0,s).split(" ");i==="blob"&&e.set(n.slice(s+1),o)}return e}async list(e){return[...(await this.listing()).keys()].filter(t=>t.startsWith(e))}async blob(e){return(await this.listing()).get(e)}async read(e){return(await this.readMany([e])).get(e)}async readMany(e){let t=await this.listing(),n=e.filter(a=>t.has(a)),s=new Map;if(n.length===0)return s;let{stdout:i}=await this.git.runRaw(["cat-file","--batch"],{cwd:this.dir,input:n.map(a=>`${t.get(a)}
`).join("")}),o=0;for(let a of n){let c=i.indexOf(10,o),p=i.subarray(o,c).toString("utf8"),u=Number(p.split(" ")[2]);if(p.endsWith(" missing")||!Number.isFinite(u))throw new $(["cat-file"],1,`object for ${a} is missing (${p})`);s.set(a,i.subarray(c+1,c+1+u).toString("utf8")),o=c+1+u+1}return s}};var Re=class{constructor(e){this.options=e;if(!/^[A-Za-z0-9][A-Za-z0-9._/-]*$/.test(e.branch)||e.branch.includes("..")||e.branch.endsWith("/"))throw new m(`history branch ${JSON.stringify(e.branch)} is not a valid branch name; expected something like "gh-pages"`);this.git=new ye(jr(e.url,e.token))}options;git;describe(){return`${be(this.options.url)} (branch ${this.options.branch})`}async list(e){return this.withSession(!0,async t=>{let n=await this.step(()=>t.fetch());if(!n)return[];let s=t.tree(n);return this.step(()=>ce(s,e,this.describe()))})}async publish(e){let t=await this.options.chartJs();return this.writeWithRetry(!0,async(n,s)=>{let i=await me(n,e,this.planOptions(t));for(let[o,a]of i.changes.writes)await s.write(o,a);for(let o of i.changes.deletes)await s.remove(o);return{changed:Et(i.changes),message:Fr(i,e),outcome:{attempts:0,added:i.added,unchanged:i.unchanged,pruned:i.pruned,compacted:i.compacted,warnings:i.warnings}}})}async rebuild(){let e=await this.options.chartJs(),t;return{...await this.writeWithRetry(!1,async(s,i)=>(t=await V(s,this.planOptions(e),i),{changed:t.written>0||t.pruned.length>0,message:`mesh-perf: rebuild dashboard and ${t.reports} run reports
`,outcome:{attempts:0,added:[],unchanged:[],pruned:t.pruned,compacted:t.compacted,warnings:t.warnings}})),summary:t}}async exportSite(e){let t=await this.options.chartJs();return this.withSession(!1,async n=>{let s=await this.step(()=>n.fetch()),i=n.tree(s);return this.step(()=>V(i,{...this.planOptions(t),includeAll:!0},e))})}planOptions(e){return{storeLabel:this.describe(),adopt:this.options.adopt??!1,now:(this.options.now??(()=>new Date))(),chartJs:e,...this.options.retention?{retention:this.options.retention}:{},...this.options.timelineRetention?{timelineRetention:this.options.timelineRetention}:{}}}async writeWithRetry(e,t){let n=this.options.maxAttempts??12,s=this.options.sleep??(i=>new Promise(o=>setTimeout(o,i)));return this.withSession(e,async i=>{for(let o=1;o<=n;o++){let a=await this.step(()=>i.fetch()),c=i.tree(a),p=i.stage(),{changed:u,message:h,outcome:d}=await this.step(()=>t(c,p));if(!u)return{...d,attempts:o};let l=await this.step(()=>p.commit(a,h));if(await this.step(()=>i.push(l))==="ok")return{...d,commit:l,attempts:o};let f=jt(o,this.options.random??Math.random);this.options.log?.info(`${this.options.branch} moved while publishing (another writer pushed first); retrying on top of it in ${f} ms (attempt ${o+1} of ${n})`),await s(f)}throw new k(`history store ${this.describe()}: the branch kept moving under concurrent writers; gave up after ${n} attempts and published nothing. Serialize publishing jobs (a workflow \`concurrency:\` group) or publish from a single final job`)})}async withSession(e,t){let n=await this.step(()=>Se.open(this.git,this.options.url,this.options.branch,{partial:e}));try{return await t(n)}finally{await n.close()}}async step(e){try{return await e()}catch(t){throw t instanceof Ze?t:t instanceof $?Jr(t,this.describe()):new A(`history store ${this.describe()}: ${t.message}`)}}};function Fr(r,e){let t=e.map(i=>`${i.run.suite}/${i.run.id}`),n=`mesh-perf: publish ${t.slice(0,3).join(", ")}${t.length>3?` and ${t.length-3} more`:""}`,s=r.pruned.length?`

Retention removed ${r.pruned.length} run(s).`:"";return`${n}${s}
`}function jr(r,e){if(!e)return;let t=/^(https?:\/\/[^/]+\/)/i.exec(r);return t?{origin:be(t[1]).replace("***@",""),token:e}:void 0}function Jr(r,e){let t=r.stderr.trim().split(`
`).filter(Boolean).slice(-3).join(" | ")||r.message;return/could not read (Username|Password)|terminal prompts disabled|Authentication failed|HTTP (Basic: )?Access denied|The requested URL returned error: 40[13]|Permission denied \(publickey|Invalid username or password|Write access to repository not granted|remote: Permission to .* denied/i.test(r.stderr)?new k(`history store ${e} refused access (git said: ${t}). Nothing was written. For HTTPS stores set MESH_PERF_STORE_TOKEN (or GITHUB_TOKEN, with permissions: contents: write); for git@ URLs load an SSH key that may push`):/does not appear to be a git repository|not a git repository|Repository not found|repository .* not found|returned error: 404|Could not resolve host|unable to access|No such file or directory|not found/i.test(r.stderr)?new m(`history store ${e} is not a git repository that can be reached (git said: ${t}). Nothing was written. Expected a git URL such as https://github.com/org/repo.git or git@github.com:org/repo.git, or the path of a git repository; for a plain local folder pass a directory path`):/protected branch|hook declined|pre-receive hook/i.test(r.stderr)?new k(`history store ${e} rejected the push (git said: ${t}). Nothing was written. Allow the workflow's token to push to the history branch (branch protection / rulesets)`):new k(`history store ${e}: git ${r.args[0]??""} failed (git said: ${t}). Nothing was written`)}function Hr(r,e=process.cwd()){if(/^[a-z][a-z0-9+.-]*:\/\//i.test(r)||/^[^/\\\s]+@[^/\\\s:]+:/.test(r))return!0;let t=Ge(e,r);return!ee(t)||!Br(t).isDirectory()?!1:ee(ve(t,"HEAD"))&&ee(ve(t,"objects"))&&ee(ve(t,"refs"))||ee(ve(t,".git"))}function Jt(r,e){if(!r.trim())throw new m("history store: expected a git URL or a directory path, got an empty value");let t=e.cwd??process.cwd(),n={chartJs:e.chartJs,...e.adopt!==void 0?{adopt:e.adopt}:{},...e.retention?{retention:e.retention}:{},...e.timelineRetention?{timelineRetention:e.timelineRetention}:{},...e.log?{log:e.log}:{},...e.now?{now:e.now}:{}};if(Hr(r,t)){let s=/^[a-z][a-z0-9+.-]*:\/\//i.test(r)||/^[^/\\\s]+@[^/\\\s:]+:/.test(r)?r:Ge(t,r);return new Re({url:s,branch:e.branch??"gh-pages",...e.token?{token:e.token}:{},...n})}return new he({root:Ge(t,r),...n})}var Ur=["MESH_PERF_STORE_TOKEN","GITHUB_TOKEN"];function xs(r,e,t,n,s){let i=r.store??e.store;if(!i)throw new m("no history store: pass --store <git URL or directory> (or set history.store in the config file)");let o=r.keep??e.keep,a=r.keepTimelines??e.keepTimelines??vt,c=kt(a,r.keepTimelines?"--keep-timelines":"history.keepTimelines"),p=Ur.map(u=>t[u]).find(u=>u!==void 0&&u!=="");return Jt(i,{branch:r.branch??e.branch??"gh-pages",...p?{token:p}:{},adopt:r.adopt??!1,...o?{retention:_e(o,r.keep?"--keep":"history.keep")}:{},...c?{timelineRetention:c}:{},chartJs:Qe,log:n,cwd:s})}export{it as a,at as b,dn as c,ln as d,dr as e,nr as f,v as g,ge as h,Jt as i,xn as j,Ur as k,xs as l};
