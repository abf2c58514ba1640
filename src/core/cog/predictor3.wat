;; Undoing TIFF predictor 3 (Adobe Photoshop TIFF Technical Note 3, floating point) of
;; Float32 rows with WebAssembly SIMD (128-bit), for ./simd.ts. The JavaScript fallback with
;; the same result is ./block.ts `floatPredictor`. Built into ./predictor3-wasm.ts by
;; `node scripts/build-wasm.mjs` (wabt); src/core/cog/simd.test.ts checks the two agree.
;;
;; p3(buf, w, rows, s, nd0, nd1): `rows` rows of `w` samples (w a multiple of 16) from byte
;; `buf`, each row stored as four byte planes (most significant first) of running byte
;; differences. Per row: the running byte sums of its 4 w bytes go to the scratch row at `s`
;; (16 bytes a step: four shift-and-add steps, plus the previous step's last sum), then the
;; planes come back over the row as little-endian 32-bit samples, 16 a step (two levels of
;; byte interleaving); a sample whose bits are `nd0` or `nd1` (the no-data value) becomes the
;; quiet NaN 0x7fc00000.
(module
  (memory (export "memory") 1)
  (func (export "p3") (param $buf i32) (param $w i32) (param $rows i32) (param $s i32) (param $nd0 i32) (param $nd1 i32)
    (local $r i32) (local $row i32) (local $p i32) (local $q i32) (local $end i32) (local $j i32) (local $o i32)
    (local $v v128) (local $carry v128) (local $zero v128)
    (local $a v128) (local $b v128) (local $c v128) (local $d v128)
    (local $lo v128) (local $hi v128) (local $lo2 v128) (local $hi2 v128) (local $x v128)
    (local $vnd0 v128) (local $vnd1 v128) (local $nan v128)
    (local.set $zero (v128.const i32x4 0 0 0 0))
    (local.set $vnd0 (i32x4.splat (local.get $nd0)))
    (local.set $vnd1 (i32x4.splat (local.get $nd1)))
    (local.set $nan (i32x4.splat (i32.const 0x7fc00000)))
    (local.set $row (local.get $buf))
    (block $done
      (loop $each_row
        (br_if $done (i32.ge_u (local.get $r) (local.get $rows)))
        ;; running byte sums of the row -> scratch
        (local.set $carry (local.get $zero))
        (local.set $p (local.get $row))
        (local.set $q (local.get $s))
        (local.set $end (i32.add (local.get $row) (i32.shl (local.get $w) (i32.const 2))))
        (loop $sums
          (local.set $v (v128.load (local.get $p)))
          (local.set $v (i8x16.add (local.get $v)
            (i8x16.shuffle 0 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 (local.get $zero) (local.get $v))))
          (local.set $v (i8x16.add (local.get $v)
            (i8x16.shuffle 0 0 16 17 18 19 20 21 22 23 24 25 26 27 28 29 (local.get $zero) (local.get $v))))
          (local.set $v (i8x16.add (local.get $v)
            (i8x16.shuffle 0 0 0 0 16 17 18 19 20 21 22 23 24 25 26 27 (local.get $zero) (local.get $v))))
          (local.set $v (i8x16.add (local.get $v)
            (i8x16.shuffle 0 0 0 0 0 0 0 0 16 17 18 19 20 21 22 23 (local.get $zero) (local.get $v))))
          (local.set $v (i8x16.add (local.get $v) (local.get $carry)))
          (v128.store (local.get $q) (local.get $v))
          (local.set $carry (i8x16.shuffle 15 15 15 15 15 15 15 15 15 15 15 15 15 15 15 15 (local.get $v) (local.get $v)))
          (local.set $p (i32.add (local.get $p) (i32.const 16)))
          (local.set $q (i32.add (local.get $q) (i32.const 16)))
          (br_if $sums (i32.lt_u (local.get $p) (local.get $end))))
        ;; planes (scratch) -> samples (row), 16 a step
        (local.set $j (i32.const 0))
        (local.set $o (local.get $row))
        (loop $planes
          (local.set $p (i32.add (local.get $s) (local.get $j)))
          (local.set $a (v128.load (local.get $p)))
          (local.set $p (i32.add (local.get $p) (local.get $w)))
          (local.set $b (v128.load (local.get $p)))
          (local.set $p (i32.add (local.get $p) (local.get $w)))
          (local.set $c (v128.load (local.get $p)))
          (local.set $p (i32.add (local.get $p) (local.get $w)))
          (local.set $d (v128.load (local.get $p)))
          ;; byte k of a sample is plane 3 - k: d c b a, low byte first
          (local.set $lo (i8x16.shuffle 0 16 1 17 2 18 3 19 4 20 5 21 6 22 7 23 (local.get $d) (local.get $c)))
          (local.set $hi (i8x16.shuffle 8 24 9 25 10 26 11 27 12 28 13 29 14 30 15 31 (local.get $d) (local.get $c)))
          (local.set $lo2 (i8x16.shuffle 0 16 1 17 2 18 3 19 4 20 5 21 6 22 7 23 (local.get $b) (local.get $a)))
          (local.set $hi2 (i8x16.shuffle 8 24 9 25 10 26 11 27 12 28 13 29 14 30 15 31 (local.get $b) (local.get $a)))
          (local.set $x (i8x16.shuffle 0 1 16 17 2 3 18 19 4 5 20 21 6 7 22 23 (local.get $lo) (local.get $lo2)))
          (v128.store offset=0 (local.get $o) (v128.bitselect (local.get $nan) (local.get $x)
            (v128.or (i32x4.eq (local.get $x) (local.get $vnd0)) (i32x4.eq (local.get $x) (local.get $vnd1)))))
          (local.set $x (i8x16.shuffle 8 9 24 25 10 11 26 27 12 13 28 29 14 15 30 31 (local.get $lo) (local.get $lo2)))
          (v128.store offset=16 (local.get $o) (v128.bitselect (local.get $nan) (local.get $x)
            (v128.or (i32x4.eq (local.get $x) (local.get $vnd0)) (i32x4.eq (local.get $x) (local.get $vnd1)))))
          (local.set $x (i8x16.shuffle 0 1 16 17 2 3 18 19 4 5 20 21 6 7 22 23 (local.get $hi) (local.get $hi2)))
          (v128.store offset=32 (local.get $o) (v128.bitselect (local.get $nan) (local.get $x)
            (v128.or (i32x4.eq (local.get $x) (local.get $vnd0)) (i32x4.eq (local.get $x) (local.get $vnd1)))))
          (local.set $x (i8x16.shuffle 8 9 24 25 10 11 26 27 12 13 28 29 14 15 30 31 (local.get $hi) (local.get $hi2)))
          (v128.store offset=48 (local.get $o) (v128.bitselect (local.get $nan) (local.get $x)
            (v128.or (i32x4.eq (local.get $x) (local.get $vnd0)) (i32x4.eq (local.get $x) (local.get $vnd1)))))
          (local.set $o (i32.add (local.get $o) (i32.const 64)))
          (local.set $j (i32.add (local.get $j) (i32.const 16)))
          (br_if $planes (i32.lt_u (local.get $j) (local.get $w))))
        (local.set $row (local.get $end))
        (local.set $r (i32.add (local.get $r) (i32.const 1)))
        (br $each_row)))))
