import { checkRegex } from './src/index.ts';
const t = performance.now();
const v = checkRegex(process.argv[2]!);
console.log(v.safe, v.safe ? v.checkedBy : v.reason, performance.now() - t);
