alltoall_linear -s 3 --iterations 2 --nb 1000 --cpu 1
