allreduce_rabenseifner_mpich -s 6 -d 10
