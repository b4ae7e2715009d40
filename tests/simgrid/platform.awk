# platform.awk: the SimGrid platform (XML, version 4.1) of a topology, from
# the text topo_dump prints:
#
#   topo_dump SPEC | awk -v G=NS_PER_BYTE -f platform.awk > platform.xml
#
# The same network link for link, so that SimGrid's max-min sharing works on
# exactly the constraints of loggopsim's flow model (docs/network.md):
# - host h is "h<h>" (an actor of rank h runs there);
# - every directed link of the topology is one SimGrid link "l<L>" (no
#   SPLITDUPLEX: ours are already one per direction), sharing_policy SHARED
#   (not FATPIPE: the flows on it share its bandwidth), latency 0 (runs
#   compare with L = 0 and no latency per switch);
# - its bandwidth is the topology's, in bytes/ns, times 1e9 (bytes/s); a
#   link whose bandwidth is 0 (the run's default) gets 1/G bytes/ns, as in
#   loggopsim;
# - one route per ordered pair of hosts, symmetrical="NO", with the links
#   of topo_route in order, in one zone of "Full" routing (explicit routes).
# A topology with lat > 0 is refused: the comparison is for latency 0.
BEGIN {
	if (G == "" || G + 0 <= 0) {
		print "platform.awk: error: give -v G=NS_PER_BYTE (> 0)" > "/dev/stderr"
		exit 2
	}
	print "<?xml version='1.0'?>"
	print "<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">"
	print "<platform version=\"4.1\">"
	print "<zone id=\"net\" routing=\"Full\">"
}
$1 == "topology" { printf "<!-- %s, default bandwidth 1/G, G = %s ns/byte -->\n", $2, G }
$1 == "hosts" {
	for (h = 0; h < $2; h++)
		printf "<host id=\"h%d\" speed=\"1Gf\"/>\n", h
}
$1 == "link" {
	bw = $3 + 0
	if (bw == 0)
		bw = 1 / G
	printf "<link id=\"l%d\" bandwidth=\"%.17gBps\" latency=\"0s\" sharing_policy=\"SHARED\"/>\n", $2, bw * 1e9
}
$1 == "route" {
	printf "<route src=\"h%d\" dst=\"h%d\" symmetrical=\"NO\">", $2, $3
	for (i = 4; i <= NF; i++)
		printf "<link_ctn id=\"l%d\"/>", $i
	print "</route>"
}
$1 == "lat" && $2 != 0 {
	print "platform.awk: error: lat=" $2 ": only latency 0 is compared" > "/dev/stderr"
	exit 2
}
END {
	print "</zone>"
	print "</platform>"
}
