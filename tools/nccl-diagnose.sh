b=carry/bin; export LD_LIBRARY_PATH=$PWD/$b/lib NCCL_NVLS_ENABLE=0 OMP_NUM_THREADS=1
m="timeout 120 mpirun --allow-run-as-root --bind-to none -x LD_LIBRARY_PATH -x NCCL_NVLS_ENABLE -x OMP_NUM_THREADS -x NCCL_DEBUG -x NCCL_DEBUG_SUBSYS -x NCCL_PROTO -x NCCL_P2P_LEVEL -x NCCL_SHM_DISABLE -x NCCL_P2P_DISABLE -x NCCL_LAUNCH_MODE -np 2 $b/spkrylov solve --quiet --set device=gpu --set distributed.transport=nccl --set matrix.generate.n=128 --set solver.preconditioner=jacobi --set spmv.format=ellpack-r"
NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,P2P,SHM,NET,GRAPH,TUNING $m > $OUT/info.log 2>&1; grep -E "via|NCCL version|Using network|comm 0x|Connected|P2P|NVLS|cudaDev|nvmlDevice" $OUT/info.log | sort | uniq | head -40; grep "^times" $OUT/info.log
for v in "NCCL_PROTO=Simple" "NCCL_PROTO=LL" "NCCL_P2P_LEVEL=NVL" "NCCL_LAUNCH_MODE=GROUP" "NCCL_P2P_DISABLE=1"; do echo "== $v"; env $v $m 2>&1 | grep -E "^times|error"; done
echo "== check_every 200"; $m --set solver.check_every=200 2>&1 | grep -E "^times"
echo "== none"; $m --set solver.preconditioner=none 2>&1 | grep -E "^times|^iterations"
