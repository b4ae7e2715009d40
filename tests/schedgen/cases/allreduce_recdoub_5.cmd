allreduce_recdoub -s 5 -d 16
