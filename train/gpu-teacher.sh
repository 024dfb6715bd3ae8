#!/bin/bash
# The labels' GPU run as it was made (see train/README.md): run from the repository root of
# a machine with an NVIDIA GPU, with a folder .devrun/ holding KataGo's OpenCL binary
# (`katago`, stripped from the AppImage `../shared/katago/setup` unpacks), its libzip and the
# ICD loader libOpenCL.so.1 in .devrun/lib/, KataGo's model (model.bin.gz), the CPU tuning
# file as cpu-tune.txt and train/teacher.py; OUT names the folder the data goes to.
# Teacher labels on the GPU: KataGo (OpenCL) through the NVIDIA ICD, train/teacher.py drivers.
set -u
D=$PWD/.devrun
T0=$(date +%s)
BUDGET=${BUDGET:-430}   # seconds for the whole script
el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
export LD_LIBRARY_PATH=$D/lib:${LD_LIBRARY_PATH:-}
chmod +x $D/katago
nvidia-smi -L
OCL=$(ls /usr/local/nvidia/lib64/libnvidia-opencl.so* /usr/local/nvidia/lib/libnvidia-opencl.so* /usr/lib/x86_64-linux-gnu/libnvidia-opencl.so* 2>/dev/null | head -1)
[ -z "$OCL" ] && OCL=$(find /usr /opt /lib -name 'libnvidia-opencl.so*' 2>/dev/null | head -1)
el "opencl lib: $OCL"
mkdir -p /etc/OpenCL/vendors && echo "$OCL" > /etc/OpenCL/vendors/nvidia.icd
ls /etc/OpenCL/vendors
mkdir -p /tmp/kg /tmp/data
cfg() { # size visits threads
cat <<C
logDir = /tmp/kg/logs
logToStderr = false
maxVisits = $2
numSearchThreadsPerAnalysisThread = 1
numAnalysisThreads = $3
nnMaxBatchSize = $3
nnCacheSizePowerOfTwo = 16
nnMutexPoolSizePowerOfTwo = 12
numNNServerThreadsPerModel = 1
reportAnalysisWinratesAs = BLACK
openclTunerFile = /tmp/kg/tune.txt
openclReTunePerBoardSize = false
maxBoardXSizeForNNBuffer = $1
maxBoardYSizeForNNBuffer = $1
requireMaxBoardSize = true
C
}
cfg 19 1 64 > /tmp/kg/tune.cfg
el "tuning"
[ -z "${SKIP_TUNE:-}" ] && timeout 150 $D/katago tuner -model $D/model.bin.gz -config /tmp/kg/tune.cfg -output /tmp/kg/tune.txt -xsize 19 -ysize 19 > /tmp/kg/tuner.log 2>&1
el "tuner rc=$?"; tail -5 /tmp/kg/tuner.log
if [ ! -s /tmp/kg/tune.txt ]; then el "no tune file: CPU one"; cp $D/cpu-tune.txt /tmp/kg/tune.txt; fi
cp /tmp/kg/tune.txt $OUT/gpu-tune.txt
NOW=$(( $(date +%s) - T0 ))
MIN=$(python3 -c "print(max(0.5, ($BUDGET - $NOW - 75) / 60))")
el "generating for $MIN minutes"
kat() { echo "$D/katago analysis -model $D/model.bin.gz -config /tmp/kg/c$1-$2.cfg"; }
for s in 9 13 19; do cfg $s 1 64 > /tmp/kg/c$s-1.cfg; cfg $s 200 32 > /tmp/kg/c$s-200.cfg; done
T=$D/teacher.py
pids=()
for k in 0 1 2 3; do
  python3 $T --katago "$(kat 9 1)" --size 9 --games 10000000 --parallel 64 --seed 1 --shard $k/4 --minutes $MIN --max-mb 7.5 -o /tmp/data/t9-$k.txt.gz 2>/tmp/data/t9-$k.log & pids+=($!)
done
for k in 0 1; do
  python3 $T --katago "$(kat 19 1)" --size 19 --games 10000000 --parallel 64 --seed 1 --shard $k/2 --minutes $MIN --max-mb 8.5 -o /tmp/data/t19-$k.txt.gz 2>/tmp/data/t19-$k.log & pids+=($!)
done
python3 $T --katago "$(kat 13 1)" --size 13 --games 10000000 --parallel 64 --seed 1 --minutes $MIN --max-mb 7 -o /tmp/data/t13.txt.gz 2>/tmp/data/t13.log & pids+=($!)
python3 $T --katago "$(kat 9 200)" --size 9 --games 400 --parallel 32 --seed 2 --visits 200 --max-plies 10 --random-opening-share 0 --random-move-share 0 --minutes $MIN -o /tmp/data/open9.txt.gz 2>/tmp/data/open9.log & pids+=($!)
python3 $T --katago "$(kat 19 200)" --size 19 --games 200 --parallel 32 --seed 2 --visits 200 --max-plies 24 --random-opening-share 0 --random-move-share 0 --minutes $MIN -o /tmp/data/open19.txt.gz 2>/tmp/data/open19.log & pids+=($!)
END=$(( $(date +%s) + ${MIN%.*} * 60 + 40 ))
while sleep 20; do
  el "$(for f in /tmp/data/*.log; do echo -n "$(basename $f .log): $(grep teacher: $f | tail -1 | cut -c10-) | "; done)"
  alive=0; for p in "${pids[@]}"; do kill -0 $p 2>/dev/null && alive=1; done
  [ $alive = 0 ] && break
  if [ $(date +%s) -gt $END ]; then el "watchdog: TERM"; kill -TERM "${pids[@]}" 2>/dev/null; sleep 15; kill -9 "${pids[@]}" 2>/dev/null; pkill -9 -f "katago analysis"; break; fi
done
wait
el "compressing"
command -v xz >/dev/null || xz() { python3 -c "import lzma,sys,shutil; o=lzma.open(sys.stdout.buffer,'wb',preset=6); shutil.copyfileobj(sys.stdin.buffer,o); o.close()"; }
cd /tmp/data
for f in *.log; do echo "== $f"; grep -v "^teacher: [0-9]" $f | tail -3; done > $OUT/gen-log.txt
(zcat t9-0.txt.gz t9-1.txt.gz | xz -T4 -6 > $OUT/t9-a.txt.xz) &
(zcat t9-2.txt.gz t9-3.txt.gz | xz -T4 -6 > $OUT/t9-b.txt.xz) &
(zcat t19-0.txt.gz | xz -T2 -6 > $OUT/t19-a.txt.xz) &
(zcat t19-1.txt.gz | xz -T2 -6 > $OUT/t19-b.txt.xz) &
(zcat t13.txt.gz | xz -T2 -6 > $OUT/t13.txt.xz) &
(zcat open9.txt.gz open19.txt.gz | xz -T2 -6 > $OUT/open.txt.xz) &
wait
ls -la $OUT; cat $OUT/gen-log.txt
tail -20 /tmp/kg/logs/*.log 2>/dev/null | tail -30
el done
