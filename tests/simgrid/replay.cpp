/* replay.cpp: replays a GOAL schedule (docs/goal.md, as schedgen writes it)
 * on a SimGrid platform (platform.awk) with SimGrid's max-min flow model,
 * and prints every rank's finishing time, to compare with
 * loggopsim --topology run with o = g = L = O = 0 (tests/simgrid/run.sh).
 *
 *   replay PLATFORM.xml SCHEDULE.goal [--gap G] [SimGrid --cfg/--log options]
 *
 * Output: "rank R FINISH_NS" for every rank, then "max FINISH_NS" (times in
 * ns, three decimals).  Exit status 1 with "replay: error: ..." on a
 * schedule it cannot replay, 2 on a bad command line.
 *
 * The same messages as loggopsim's (docs/semantics.md sections 4 and 11):
 * - Rank r is an actor on host "h<r>" (no mapping: rank r on host r).
 * - An op is posted once its dependencies allow, as in section 3: a
 *   "requires" at the dependency's completion, an "irequires" at its
 *   start.  With o = O = 0 no CPU time is spent anywhere.
 * - A send is eager (loggopsim runs with S above every size): it starts
 *   and completes when it leaves (below), and its bytes go at once.  Its
 *   message is a SimGrid comm of s - 1 bytes (sections 4 and 11: a
 *   message of s bytes is a flow of (s - 1) G ns of work at full rate
 *   1/G, and every link carries 1/G bytes/ns), detached, to the mailbox
 *   "SRC:DST:TAG".  Every mailbox has
 *   its receiving actor as permanent receiver, so that the comm starts when
 *   sent, before the receive is posted (the eager bytes of LogGOPS, which
 *   flow whether the receive is posted or not).
 * - A receive takes the comm of its mailbox (the first one: the order of
 *   MPI matching for one source and tag); it completes when the comm ends.
 * - A calc sleeps its duration, the rank doing nothing else meanwhile (an
 *   approximation of its CPU being busy: the schedules compared have
 *   none).
 * - --gap G: LogGOPS's sending NIC.  The rank's sends leave one after the
 *   other in the order they were posted, each no earlier than the one
 *   before plus that one's sG = round((s - 1) G) ns (section 4:
 *   nic_send_free = t + g + sG, with g = 0); receives meanwhile are
 *   posted and complete as usual.  Without it a send leaves when posted,
 *   as SimGrid's comms do.
 * A rank's finishing time is the completion of its last op.
 *
 * What loggopsim does and this program does not: its receiving NIC and CPU
 * handle one message at a time (each g + sG and o + max(sO, sG)), and a
 * flow starts only when its message is handled; here every comm starts
 * when sent and they all share the links at once (see run.sh and
 * docs/network.md, "Validation against SimGrid", for what that changes). */
#include <simgrid/s4u.hpp>
#include <xbt/log.h>

#include <cstdint>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace sg4 = simgrid::s4u;

namespace {

enum class Kind { send, recv, calc };

struct Op {
	Kind kind;
	uint64_t size = 0;        /* bytes (send, recv) or ns (calc) */
	long peer = 0, tag = 0;
	int deps_left = 0;        /* dependencies not yet satisfied */
	std::vector<size_t> after_start, after_end;  /* dependents (irequires, requires) */
};

struct Rank {
	std::vector<Op> ops;
	std::map<std::string, size_t> label;   /* "l3" -> index in ops */
	double finish = 0;
};

std::vector<Rank> ranks;
double gap_G = -1;                         /* --gap: ns per byte, < 0: off */
sg4::BarrierPtr start_barrier;

[[noreturn]] void die(const std::string& file, long line, const std::string& msg)
{
	std::fprintf(stderr, "%s:%ld: error: %s\n", file.c_str(), line, msg.c_str());
	std::exit(1);
}

/* A size "123b" or "123" (bytes). */
bool parse_size(const std::string& w, uint64_t* v)
{
	char* end;
	if (w.empty() || w[0] < '0' || w[0] > '9')
		return false;
	unsigned long long x = std::strtoull(w.c_str(), &end, 10);
	if (*end == 'b')
		end++;
	*v = x;
	return *end == 0;
}

/* The subset of GOAL that schedgen writes: num_ranks, rank blocks with
 * "LABEL: send Nb to R tag T", "LABEL: recv Nb from R tag T",
 * "LABEL: calc N", "LABEL requires LABEL", "LABEL irequires LABEL" and
 * comments.  Anything else (cpu, nic, comm, ANY) is refused. */
void read_goal(const std::string& file)
{
	std::ifstream in(file);
	if (!in)
		die(file, 0, "cannot open");
	std::string text;
	long lineno = 0, cur = -1;
	std::vector<std::pair<long, std::string>> deps;   /* of the current rank */
	auto close_rank = [&]() {
		Rank& r = ranks[cur];
		std::set<std::string> seen;   /* a repeated line adds nothing */
		for (auto& d : deps) {
			std::istringstream ws(d.second);
			std::string a, how, b;
			ws >> a >> how >> b;
			if (!seen.insert(a + " " + how + " " + b).second)
				continue;
			auto ia = r.label.find(a), ib = r.label.find(b);
			if (ia == r.label.end() || ib == r.label.end())
				die(file, d.first, "unknown label");
			if (how == "requires")
				r.ops[ib->second].after_end.push_back(ia->second);
			else
				r.ops[ib->second].after_start.push_back(ia->second);
			r.ops[ia->second].deps_left++;
		}
		deps.clear();
	};
	while (std::getline(in, text)) {
		lineno++;
		size_t c = text.find("//");
		if (c != std::string::npos)
			text.erase(c);
		std::istringstream ws(text);
		std::vector<std::string> w;
		for (std::string x; ws >> x;)
			w.push_back(x);
		if (w.empty())
			continue;
		if (w[0] == "num_ranks" && w.size() == 2 && ranks.empty()) {
			long n = std::atol(w[1].c_str());
			if (n < 1 || n > 1000000)
				die(file, lineno, "bad num_ranks");
			ranks.resize(n);
		} else if (w[0] == "rank" && w.size() == 3 && w[2] == "{" && cur < 0) {
			cur = std::atol(w[1].c_str());
			if (cur < 0 || cur >= (long)ranks.size())
				die(file, lineno, "rank out of range");
		} else if (w[0] == "}" && w.size() == 1 && cur >= 0) {
			close_rank();
			cur = -1;
		} else if (cur >= 0 && w.size() == 3 && (w[1] == "requires" || w[1] == "irequires")) {
			deps.emplace_back(lineno, text);
		} else if (cur >= 0 && w[0].size() > 1 && w[0].back() == ':') {
			Op op;
			uint64_t v;
			if (w.size() == 7 && (w[1] == "send" || w[1] == "recv") &&
			    w[3] == (w[1] == "send" ? "to" : "from") && w[5] == "tag" &&
			    parse_size(w[2], &v)) {
				op.kind = w[1] == "send" ? Kind::send : Kind::recv;
				op.size = v;
				op.peer = std::atol(w[4].c_str());
				op.tag = std::atol(w[6].c_str());
				if (op.peer < 0 || op.peer >= (long)ranks.size() || op.peer == cur)
					die(file, lineno, "peer out of range (or the rank itself)");
			} else if (w.size() == 3 && w[1] == "calc" && parse_size(w[2], &v)) {
				op.kind = Kind::calc;
				op.size = v;
			} else {
				die(file, lineno, "not replayed here: " + text);
			}
			Rank& r = ranks[cur];
			if (!r.label.emplace(w[0].substr(0, w[0].size() - 1), r.ops.size()).second)
				die(file, lineno, "repeated label");
			r.ops.push_back(op);
		} else {
			die(file, lineno, "not replayed here: " + text);
		}
	}
	if (ranks.empty() || cur >= 0)
		die(file, lineno, "incomplete schedule");
}

std::string mailbox_name(long src, long dst, long tag)
{
	return std::to_string(src) + ":" + std::to_string(dst) + ":" + std::to_string(tag);
}

/* The sG of a message of s bytes, in ns (section 4, with the rounding of
 * loggopsim: half up). */
double message_gap(uint64_t s)
{
	return s ? std::floor((double)(s - 1) * gap_G + 0.5) : 0;
}

void rank_actor(long me)
{
	Rank& r = ranks[me];
	sg4::ActorPtr self = sg4::Actor::self();
	/* Every mailbox this rank receives from is its own before any rank
	 * sends: a comm starts when sent. */
	for (const Op& op : r.ops)
		if (op.kind == Kind::recv)
			sg4::Mailbox::by_name(mailbox_name(op.peer, me, op.tag))->set_receiver(self);
	start_barrier->wait();

	static int payload;
	std::vector<size_t> ready;     /* a stack: the next op to post on top */
	for (size_t i = r.ops.size(); i-- > 0;)
		if (r.ops[i].deps_left == 0)
			ready.push_back(i);    /* the roots in definition order */
	std::deque<size_t> sends;      /* posted sends waiting for the NIC, in order */
	std::vector<sg4::CommPtr> pending;   /* the comms of posted receives */
	std::vector<size_t> pending_op;
	std::vector<size_t> released;
	double nic_free = 0;           /* the sending NIC's free time, s (--gap) */
	size_t done = 0;
	auto release = [&](const std::vector<size_t>& deps) {
		for (size_t d : deps)
			if (--r.ops[d].deps_left == 0)
				released.push_back(d);
	};
	auto complete = [&](size_t i) {
		done++;
		r.finish = sg4::Engine::get_clock();
		release(r.ops[i].after_end);
	};
	/* Released ops go on top of the stack, the first released first. */
	auto push_released = [&]() {
		for (size_t k = released.size(); k-- > 0;)
			ready.push_back(released[k]);
		released.clear();
	};
	while (done < r.ops.size()) {
		while (!ready.empty()) {
			size_t i = ready.back();
			ready.pop_back();
			Op& op = r.ops[i];
			if (op.kind != Kind::send)
				release(op.after_start);
			switch (op.kind) {
			case Kind::send:
				sends.push_back(i);   /* starts when it leaves */
				break;
			case Kind::recv: {
				int* data;
				pending.push_back(sg4::Mailbox::by_name(mailbox_name(op.peer, me, op.tag))
				                      ->get_async<int>(&data));
				pending_op.push_back(i);
				break;
			}
			case Kind::calc:
				sg4::this_actor::sleep_for((double)op.size * 1e-9);
				complete(i);
				break;
			}
			push_released();
		}
		/* The sends whose NIC is free (within a picosecond: the clock is
		 * a double) leave now; an eager send completes when it leaves. */
		double now = sg4::Engine::get_clock();
		while (!sends.empty() && nic_free <= now + 1e-12) {
			size_t i = sends.front();
			sends.pop_front();
			const Op& op = r.ops[i];
			if (gap_G >= 0)
				nic_free = now + message_gap(op.size) * 1e-9;
			sg4::Mailbox::by_name(mailbox_name(me, op.peer, op.tag))
			    ->put_init(&payload, op.size ? op.size - 1 : 0)->detach();
			release(op.after_start);
			complete(i);
		}
		push_released();
		if (done == r.ops.size() || !ready.empty())
			continue;
		/* Wait for a receive to complete, or for the NIC. */
		double timeout = sends.empty() ? -1 : nic_free - now;
		if (pending.empty()) {
			if (sends.empty()) {
				std::fprintf(stderr, "replay: error: rank %ld is stuck\n", me);
				std::exit(1);
			}
			sg4::this_actor::sleep_for(timeout);
			continue;
		}
		ssize_t k = sg4::Comm::wait_any_for(pending, timeout);
		if (k < 0)
			continue;
		size_t i = pending_op[k];
		pending.erase(pending.begin() + k);
		pending_op.erase(pending_op.begin() + k);
		complete(i);
		push_released();
	}
	for (const Op& op : r.ops)
		if (op.kind == Kind::recv)
			sg4::Mailbox::by_name(mailbox_name(op.peer, me, op.tag))->set_receiver(nullptr);
}

} // namespace

int main(int argc, char** argv)
{
	/* SimGrid's own options (--cfg=..., --log=...) are taken out of argv. */
	sg4::Engine e(&argc, argv);
	std::vector<std::string> args;
	for (int i = 1; i < argc; i++) {
		if (!std::strcmp(argv[i], "--gap") && i + 1 < argc) {
			gap_G = std::atof(argv[++i]);
			if (!(gap_G >= 0)) {
				std::fprintf(stderr, "replay: error: --gap %s: not a number >= 0\n", argv[i]);
				return 2;
			}
		} else {
			args.emplace_back(argv[i]);
		}
	}
	if (args.size() != 2) {
		std::fprintf(stderr, "usage: replay PLATFORM.xml SCHEDULE.goal [--gap G] [--cfg=...]\n");
		return 2;
	}
	/* Not a line per option set below. */
	xbt_log_control_set("xbt_cfg.thres:warning");
	/* SimGrid's max-min model, without any of its TCP corrections, set
	 * before the platform is loaded (its models are made then).  These
	 * override a --cfg of the command line for the same options: the
	 * comparison needs them; other --cfg options still apply. */
	/* CM02: the flow-level max-min model (Casanova and Marchal), the one
	 * without LV08's or SMPI's correction factors. */
	sg4::Engine::set_config("network/model:CM02");
	/* Cross-traffic would put every comm on its reverse route too, at 5% of
	 * its rate (TCP acknowledgements): not in our model. */
	sg4::Engine::set_config("network/crosstraffic:0");
	/* TCP-gamma bounds a flow's rate by gamma / (2 latency) (the TCP
	 * window); 0 is no bound (latency 0 gives none either). */
	sg4::Engine::set_config("network/TCP-gamma:0");
	/* weight-S adds S / bandwidth per link to a flow's sharing penalty, so
	 * that long routes get less (RTT unfairness); 0: every flow the same
	 * weight, plain max-min. */
	sg4::Engine::set_config("network/weight-S:0");
	/* No correction of the latency (slow start) nor of the bandwidth
	 * (protocol overhead): a flow alone gets exactly the link's bandwidth. */
	sg4::Engine::set_config("network/latency-factor:1");
	sg4::Engine::set_config("network/bandwidth-factor:1");
	/* The plain max-min solver (the default, said here). */
	sg4::Engine::set_config("network/solver:maxmin");

	read_goal(args[1]);
	e.load_platform(args[0]);
	size_t P = ranks.size();
	if (e.get_host_count() < P) {
		std::fprintf(stderr, "replay: error: %zu ranks on %zu hosts\n", P, e.get_host_count());
		return 1;
	}
	start_barrier = sg4::Barrier::create((unsigned)P);
	for (size_t r = 0; r < P; r++)
		sg4::Actor::create("rank" + std::to_string(r), e.host_by_name("h" + std::to_string(r)),
		                   rank_actor, (long)r);
	auto t0 = std::chrono::steady_clock::now();
	e.run();
	std::chrono::duration<double> run = std::chrono::steady_clock::now() - t0;
	double max = 0;
	for (size_t r = 0; r < P; r++) {
		std::printf("rank %zu %.3f\n", r, ranks[r].finish * 1e9);
		if (ranks[r].finish > max)
			max = ranks[r].finish;
	}
	std::printf("max %.3f\n", max * 1e9);
	std::printf("run_s %.3f\n", run.count());   /* the simulation's wall time */
	return 0;
}
