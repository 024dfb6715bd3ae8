#!/bin/bash
# The training's GPU run as it was made (see train/README.md): run from the repository root
# with a folder .devrun2/ holding the built examples/net_data, train/train.py and the data
# files of train/data/; OUT names the folder the nets come back to.
# Converts the teacher's games with the engine's own encoder, then trains several net sizes
# side by side on the GPU; everything comes back in one tar.
set -u
D=$PWD/.devrun2
T0=$(date +%s)
el() { echo "[$(( $(date +%s) - T0 ))s] $*"; }
MIN=${MIN:-3.5}
mkdir -p /tmp/d /tmp/nets
chmod +x $D/net_data
nvidia-smi -L
(xz -dc $D/t9-*.txt.xz | $D/net_data /tmp/d/t9) &
(xz -dc $D/t13.txt.xz | $D/net_data /tmp/d/t13) &
(xz -dc $D/t19-*.txt.xz | $D/net_data /tmp/d/t19) &
wait
ls -la /tmp/d
el "converted"
DATA="/tmp/d/t9-9.bin /tmp/d/t13-13.bin /tmp/d/t19-19.bin"
train() { # name blocks channels head
  python3 $D/train.py --data $DATA --blocks $2 --channels $3 --head $4 --batch 512 --lr 2e-3 \
    --minutes $MIN --out /tmp/nets/$1.safetensors --fixtures /tmp/nets/$1-fixtures.json --log /tmp/nets/$1.log &
}
train b3c32 3 32 16
train b6c48 6 48 24
train b6c64 6 64 32
train b10c96 10 96 32
sleep 30; nvidia-smi --query-gpu=utilization.gpu,memory.used --format=csv
wait
el "trained"
for f in /tmp/nets/*.log; do echo "== $f"; grep -v "^step" $f; grep "^step" $f | tail -2; done | tee $OUT/train-log.txt
cd /tmp/nets && tar cf $OUT/nets.tar *.safetensors *.json *.log
ls -la $OUT
el done
