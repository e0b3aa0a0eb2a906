/*
 * spinbit.pml: a Promela model, for the Spin model checker, of the
 * go-spinbit runtime mutex as goroot/src/runtime/lock_spinbit.go and
 * lock_claim.go implement it (lock2, lock2Slow, mutexPushed,
 * mutexSleepOnStack, mutexLeaveStack, unlock2, unlock2Wake; the claim
 * queue: mutexWaitForClaim, mutexClaimJoin, mutexHandOff and the bucket's
 * ticket lock), with the M semaphore it sleeps on from
 * goroot/src/runtime/lock_futexsema.go (semasleep, with and without a
 * timeout, and semawakeup) and the partial M pointers of lock_mkey.go.
 *
 * One process is one M that takes and releases the one mutex, l, whose
 * claim queue is in the one bucket. Every atomic block in proctype M is
 * one atomic operation of the Go code (an 8-bit swap, OR or AND, a CAS, a
 * load, an Xadd or a store, or a futex call) together with the local
 * computation that follows it up to the next shared access. The comment on
 * each names the Go function and, in backquotes, the Go statements it
 * stands for; model/README.md explains how a test keeps those quotes
 * honest, and which steps fold in more and why.
 *
 * Time is not modelled, only its effects: whenever the Go code compares
 * nanotime() with the deadline of lock2Slow, the model chooses either
 * outcome, and a sleep with a timeout may time out at any point where
 * semasleep can return -1.
 *
 * What is checked, and how (model/README.md has the commands):
 *   - mutual exclusion, who holds mutexLocked (hand-offs included), the
 *     shape and order of the stack of sleepers, the claim queue and its
 *     bucket, who owns mutexSpinning and mutexStackLocked, mutexClaimed
 *     against the queue, the hint: assertions and the invariant of
 *     proctype monitor;
 *   - the bound: from the join that puts an M in the claim queue to its
 *     entry, at most k+1 entries by other Ms, k the Ms ahead of it
 *     (assertions in acquired());
 *   - no lost wakeup, with -DNOTIMEOUT (sleeps on the stack that never
 *     time out, so that a timeout cannot hide a lost wakeup): invalid end
 *     states (a sleeper nobody wakes) and the assertion of proctype final;
 *   - progress, under weak fairness: "terminates" (every M finishes its
 *     NACQ acquisitions) and, with FOREVER, "patience" (an M whose
 *     patience has ended eventually enters).
 *
 * -DFOREVER makes every M lock and unlock forever instead of NACQ times.
 * -DBLAME adds the blame of sampled unlocks (unlock2Blame), which only the
 * go1.27.3 series has: any unlock may be sampled.
 * Each -DMUTANT_... changes one marked spot; model/README.md lists them and
 * what the checker reports for each.
 */

/* ---- configuration ---------------------------------------------------- */

#ifndef NM
#define NM 3            /* Ms taking part: 2 or 3 */
#endif
#if NM < 2 || NM > 3
#error "NM must be 2 or 3"
#endif

#ifndef NACQ
#define NACQ 2          /* acquisitions per M, without FOREVER */
#endif
#ifndef NACQ1
#define NACQ1 NACQ      /* acquisitions of M 1, to let one M go on longer */
#endif

/* mutexActiveSpins+mutexPassiveSpins: how often the spinner polls the word
 * before it sleeps. Go's is large; what matters here is that it is finite. */
#ifndef SPINS
#define SPINS 1
#endif

/* mutexPatiencePasses: the passes round lock2Slow's loop after which the
 * deadline is set if no sleep set it first. Go's is 8; what matters here is
 * that it is finite. */
#ifndef PASSES
#define PASSES 1
#endif

/* ---- the key word, with the Go constants' values ----------------------- */

#define mutexLocked      1
#define mutexSleeping    2
#define mutexSpinning    256
#define mutexStackLocked 512
#define mutexClaimed     1024
#define mutexMBits       11
#define lowByte          255   /* key8: the swaps write all of it */
#define flagBits         2047  /* ^mutexMMask */
#define unusedBits       252   /* bits 2-7 */

/* Ms are numbered 1..NM, and 0 is nil. M m is kept in the key word as
 * m<<mutexMBits, standing for its partial pointer (lock_mkey.go). */
#define mutexPartialM(m) ((m) << mutexMBits)
#define mutexMFromKey(x) ((x) >> mutexMBits)
#define withSleepHint(x) ((mutexMFromKey(x) != 0 || ((x) & mutexClaimed) != 0) -> ((x) | mutexSleeping) : (x))

int  key;                       /* l.key */
byte nextwaitm[NM + 1];         /* m.nextwaitm; [0], nil's, stays 0 */
byte waitsema[NM + 1];          /* m.waitsema, the futex word of an M's semaphore */
bool infutex[NM + 1];           /* the kernel: the M waits in futexsleep */
bool spinning[NM + 1];          /* lock2Slow's local spinning, global for the monitor */
bool handed[NM + 1];            /* mutexClaimOf(mp).handed */
byte cq[NM];                    /* l's claim queue, head first (the links of mutexClaimOf(mp)), 0 past its end */
byte cqlen;                     /* Ms in it */
byte tq[NM];                    /* the Ms that hold tickets of the bucket, in ticket order: the holder first */
byte tqlen;                     /* how many */

/* Where mutexHandOff returns to. */
#define RET_LOCK2 1
#define RET_SLOW  2
#define RET_WAKE  3
#define RET_POKE  4

/* What a sleep in semasleep is. */
#define SLEEP_STACK 1           /* semasleep(rest) on the stack, from mutexSleepOnStack */
#define SLEEP_LEAVE 2           /* semasleep(-1) in mutexLeaveStack, taking a waker's wakeup */
#define SLEEP_HAND  3           /* semasleep(-1) in mutexWaitForClaim, until an M hands l over */

/* ---- ghost state, read only by the checks ------------------------------ */

byte holders;                   /* Ms in their critical sections */
byte owner;                     /* the M that holds mutexLocked (took it, or was handed it), or 0 */
byte stackOwner;                /* the M that owns mutexStackLocked, or 0 */
byte bucketOwner;               /* the M that holds the bucket, or 0 */
bool late[NM + 1];              /* the M's patience has ended, and it has not entered since */
bool joined[NM + 1];            /* the M joined the claim queue, and has not entered since */
byte budget[NM + 1];            /* for a joined M: how many more entries by others may come before its own */
byte phase[NM + 1];             /* 0 off the stack, 1 on it, 2 taken off by a waker and its wakeup not yet taken */
byte rank[NM + 1];              /* M on the stack: how many on it went to sleep before it */
byte nsleep;                    /* Ms on the stack */
#ifndef FOREVER
byte done;                      /* Ms that finished their NACQ acquisitions */
#endif

/* me enters its critical section: count it against every M in the
 * claim queue. */
inline countBypass(i) {
	if
	:: i != me && joined[i] ->
		assert(budget[i] > 0);          /* the bound */
		budget[i]--
	:: else
	fi
}

inline acquired() {
	assert(owner == me);            /* only the holder of mutexLocked enters */
	holders++;
	assert(holders == 1);           /* mutual exclusion */
	countBypass(1); countBypass(2);
#if NM >= 3
	countBypass(3);
#endif
	joined[me] = false; budget[me] = 0; late[me] = false
}

/* me's append to the claim queue, with k Ms ahead of it: from here on, at
 * most k+1 entries by others may precede its own. */
inline ghostJoin(k) {
	assert(!joined[me]);
	joined[me] = true; budget[me] = k + 1
}

/* The push CAS succeeded: me is on the stack. */
inline ghostPush(m) {
	assert(phase[m] == 0);          /* not on the stack twice */
	phase[m] = 1;
	rank[m] = nsleep;
	nsleep++
}

inline rankDown(m, i) {
	if
	:: phase[i] == 1 && rank[i] > rank[m] -> rank[i]--
	:: else
	fi
}

/* m leaves the stack, and goes to phase to (2 when a waker took it off, 0
 * when it took itself off). Every M on it that went to sleep after m moves
 * down one rank. */
inline ghostOff(m, to) {
	assert(m != 0 && phase[m] == 1);/* it was on the stack: nobody is taken off twice */
	phase[m] = to;
	rankDown(m, 1); rankDown(m, 2);
#if NM >= 3
	rankDown(m, 3);
#endif
	rank[m] = 0;
	nsleep--
}

/* The CAS of unlock2Wake that takes the top off: m went to sleep after
 * every other M on the stack. */
inline ghostPopTop(m) {
	assert(m != 0 && rank[m] == nsleep - 1);        /* the stack is in the order its Ms slept */
	ghostOff(m, 2)
}

/* The stack as the key word and the links show it, from the top down. */
#define K0 mutexMFromKey(key)
#define K1 nextwaitm[K0]
#define K2 nextwaitm[K1]
#define K3 nextwaitm[K2]
#if NM >= 3
#define STACKOK (K3 == 0 && (K1 == 0 || K1 != K0) && (K2 == 0 || (K2 != K0 && K2 != K1)))
#define LISTED(m) (K0 == (m) || K1 == (m) || K2 == (m))
#define MEMBERS (((phase[1] == 1) == LISTED(1)) && ((phase[2] == 1) == LISTED(2)) && \
	((phase[3] == 1) == LISTED(3)))
#define NSPINNERS (spinning[1] + spinning[2] + spinning[3])
#define QIN(m) (cq[0] == (m) || cq[1] == (m) || cq[2] == (m))
#define QSHAPE ((cqlen <= 3) && (cqlen > 0 || cq[0] == 0) && (cqlen > 1 || cq[1] == 0) && (cqlen > 2 || cq[2] == 0) && \
	(cq[1] == 0 || (cq[1] != cq[0])) && (cq[2] == 0 || (cq[2] != cq[0] && cq[2] != cq[1])))
#define QUEUEOK (QSHAPE && QMEMBER(1) && QMEMBER(2) && QMEMBER(3))
#define ALLIDLE (phase[1] + phase[2] + phase[3] + waitsema[1] + waitsema[2] + waitsema[3] + \
	handed[1] + handed[2] + handed[3] + spinning[1] + spinning[2] + spinning[3] == 0)
#else
#define STACKOK (K2 == 0 && (K1 == 0 || K1 != K0))
#define LISTED(m) (K0 == (m) || K1 == (m))
#define MEMBERS (((phase[1] == 1) == LISTED(1)) && ((phase[2] == 1) == LISTED(2)))
#define NSPINNERS (spinning[1] + spinning[2])
#define QIN(m) (cq[0] == (m) || cq[1] == (m))
#define QSHAPE ((cqlen <= 2) && (cqlen > 0 || cq[0] == 0) && (cqlen > 1 || cq[1] == 0) && \
	(cq[1] == 0 || (cq[1] != cq[0])))
#define QUEUEOK (QSHAPE && QMEMBER(1) && QMEMBER(2))
#define ALLIDLE (phase[1] + phase[2] + waitsema[1] + waitsema[2] + handed[1] + handed[2] + \
	spinning[1] + spinning[2] == 0)
#endif

/* An M is in the claim queue only between its join and its entry, and an
 * M that joined and is out of it again holds mutexLocked: nobody is taken
 * out without being handed l. */
#define QMEMBER(m) ((!QIN(m) || joined[m]) && (!joined[m] || QIN(m) || owner == (m)))

/* True in every state:
 *   - at most one M is in its critical section;
 *   - mutexLocked is set exactly while some M holds it;
 *   - the stack has no cycle and no M twice, and holds exactly the Ms that
 *     went to sleep and were not taken off: none lost, none extra;
 *   - the claim queue has no M twice, holds only Ms that joined it and did
 *     not enter since, and an M out of it again holds l;
 *   - mutexSpinning is set exactly when one M owns it, and likewise
 *     mutexStackLocked;
 *   - while nobody holds the bucket, mutexClaimed is set exactly when the
 *     claim queue is not empty;
 *   - bits 2-7, which every swap of the low byte writes, stay zero;
 *   - the hint is set only while l is held.
 * Each is asserted on its own, so that pan names the one that failed. */
#define LOCKOK (((key & mutexLocked) != 0) == (owner != 0))
#define SPINOK (NSPINNERS <= 1 && ((key & mutexSpinning) != 0) == (NSPINNERS == 1))
#define OWNEROK (((key & mutexStackLocked) != 0) == (stackOwner != 0))
#define CLAIMOK (bucketOwner != 0 || ((key & mutexClaimed) != 0) == (cqlen > 0))
#define HINTOK ((key & mutexSleeping) == 0 || (key & mutexLocked) != 0)
#define BUCKETOK (bucketOwner == 0 || bucketOwner == tq[0])
#define INVARIANT (holders <= 1 && LOCKOK && nextwaitm[0] == 0 && STACKOK && MEMBERS && QUEUEOK && \
	SPINOK && OWNEROK && BUCKETOK && CLAIMOK && (key & unusedBits) == 0 && HINTOK)

active proctype monitor() {
end:	atomic {        /* model: the invariant */
		!(INVARIANT) ->
		assert(holders <= 1);
		assert(LOCKOK);
		assert(nextwaitm[0] == 0 && STACKOK);
		assert(MEMBERS);
		assert(QUEUEOK);
		assert(SPINOK);
		assert(OWNEROK);
		assert(BUCKETOK);
		assert(CLAIMOK);
		assert((key & unusedBits) == 0);
		assert(HINTOK)
	}
}

#ifndef FOREVER
/* Once every M is done: l is free and unclaimed, its hint clear, its claim
 * queue empty and its bucket free; nobody spins, owns the stack or sleeps,
 * and no semaphore holds a wakeup nobody took, nor any M a hand-off. */
active proctype final() {
end:	atomic { done == NM -> assert(key == 0 && ALLIDLE && cqlen == 0 && tqlen == 0 && owner == 0) }   /* model: the end */
}
#endif

/* ---- the M ------------------------------------------------------------- */

/* After unlock2 returns: clear the dead locals, so that states that differ
 * only in them are one state, and lock again or finish. */
inline unlocked() {
	v = 0; next = 0; old8 = 0; wakee = 0;
#ifdef BLAME
	blamed = false;
#endif
#ifdef FOREVER
	goto lock2
#else
	acq++;
	if
	:: acq == (me == 1 -> NACQ1 : NACQ) -> done++; goto finished
	:: else -> goto lock2
	fi
#endif
}

/* lock2Slow breaks out of its loop with l taken: clear its locals. */
inline slowDone() {
	v = 0; next = 0; spins = 0; passes = 0; dl = false; spinning[me] = false
}

/* mutexHandOff returns got (0 for nil) to its caller. */
inline handOffReturn() {
	if
	:: ret == RET_LOCK2 ->
		ret = 0;
		if
		:: got == 0 -> acquired(); goto holding
		:: else -> got = 0; goto slow
		fi
	:: ret == RET_SLOW ->
		ret = 0;
		if
		:: got == 0 && spinning[me] -> goto s_unspin
		:: got == 0 && !spinning[me] -> acquired(); slowDone(); goto holding
		:: else -> got = 0; goto s_load
		fi
	:: ret == RET_WAKE ->
		ret = 0;
		if
		:: got == 0 -> goto w_again
		:: else -> got = 0; unlocked()
		fi
	:: ret == RET_POKE ->
		ret = 0;
		assert(got != 0);       /* the throw: the queue was empty while this M was in it */
		selfHanded = (got == me);
		got = 0;
		pokeDone()
	fi
}

/* semawakeup has returned: to mutexHandOff, which returns, or to
 * unlock2Wake, after which unlock2 returns. */
inline woken() {
	if
	:: ret != 0 -> handOffReturn()
	:: else -> unlocked()
	fi
}

/* The bucket's holder gives it to the next ticket. */
inline ticketDone() {
	assert(tq[0] == me && bucketOwner == me);
	tq[0] = tq[1];
#if NM >= 3
	tq[1] = tq[2];
#endif
	tq[NM - 1] = 0; tqlen--;
	bucketOwner = 0
}

/* mutexWaitForClaim gives up mutexSpinning if the M owns it, and joins. */
inline waitForClaim() {
	if
	:: spinning[me] -> goto c_unspin
	:: else -> goto j_ticket
	fi
}

/* The top of lock2Slow's loop, after each load of v.
 * go lock2Slow: `passes++`, `if deadline == 0 && passes > mutexPatiencePasses {`, `deadline = nanotime() + patience`,
 * `} else if deadline != 0 && nanotime() >= deadline {`, `claim := mutexWaitForClaim(l, spinning, false)`,
 * `if v&mutexLocked == 0 {`, `if v&mutexClaimed == 0 {`, `if !spinning && v&mutexSpinning == 0 {`,
 * `if spinning && spins < mutexActiveSpins+mutexPassiveSpins {`, `if deadline == 0 {`, `deadline = now + patience` */
inline slowDecide() {
	if
	:: !dl && passes < PASSES -> passes++; slowPass()
	:: !dl && passes >= PASSES -> passes = 0; dl = true; slowPass()
#ifdef MUTANT_OVERDUE_IF_HELD
	/* mutant: an overdue M waits for a hand-off only if l is held; if it
	 * is free, the M competes for it as before its patience ended */
	:: dl && (v & mutexLocked) != 0 -> late[me] = true; waitForClaim()
	:: dl && (v & mutexLocked) == 0 -> late[me] = true; slowPass()
#else
	:: dl -> late[me] = true; waitForClaim()  /* the deadline has passed */
#endif
	:: dl -> slowPass()                       /* it has not */
	fi
}

/* The rest of the pass: take l, or take it to hand it off, or spin, or
 * sleep. */
inline slowPass() {
	if
#ifdef MUTANT_SLOW_CAS_C
	/* mutant: take a free mutex with a CAS even while it is claimed */
	:: (v & mutexLocked) == 0 -> goto s_acquire
#else
	:: (v & (mutexLocked | mutexClaimed)) == 0 -> goto s_acquire
	:: (v & mutexLocked) == 0 && (v & mutexClaimed) != 0 -> goto s_honour
#endif
	:: (v & mutexLocked) != 0 && !spinning[me] && (v & mutexSpinning) == 0 -> goto s_spin
	:: (v & mutexLocked) != 0 && spinning[me] && spins < SPINS -> goto s_poll
	:: (v & mutexLocked) != 0 && !(!spinning[me] && (v & mutexSpinning) == 0) && !(spinning[me] && spins < SPINS) ->
		/* the deadline, set here if not before; rest > 0, or the
		 * next pass finds the M overdue, as the choice above could */
		dl = true; passes = 0; goto s_push
	fi
}

/* The top of unlock2Wake's first loop, after each load of v: honour a
 * claim, return, leaving the waking and the hint to an M that owes them,
 * or take the stack (w_take).
 * go unlock2Wake: `if v&mutexClaimed != 0 {`, `if v&mutexMMask == 0 {`, `return // nobody sleeps`,
 * `if v&(mutexStackLocked|mutexSpinning) != 0 {`, `return` */
inline wakeDecide() {
	if
#ifdef MUTANT_WAKE_IGNORES_C
	/* mutant: unlock2Wake does not look for a claim */
	:: false -> goto w_honour
#else
	:: (v & mutexClaimed) != 0 -> goto w_honour
#endif
#ifdef MUTANT_LEAVE_HOLDER
	/* mutant: leave the waking to an M that took l after the swap,
	 * although that M owes no hint */
	:: (v & mutexClaimed) == 0 && mutexMFromKey(v) == 0 -> unlocked()
	:: (v & mutexClaimed) == 0 && mutexMFromKey(v) != 0 && (v & (mutexStackLocked | mutexSpinning | mutexLocked)) != 0 -> unlocked()
	:: (v & mutexClaimed) == 0 && mutexMFromKey(v) != 0 && (v & (mutexStackLocked | mutexSpinning | mutexLocked)) == 0 -> goto w_take
#else
	:: (v & mutexClaimed) == 0 && mutexMFromKey(v) == 0 -> unlocked()
	:: (v & mutexClaimed) == 0 && mutexMFromKey(v) != 0 && (v & (mutexStackLocked | mutexSpinning)) != 0 -> unlocked()
	:: (v & mutexClaimed) == 0 && mutexMFromKey(v) != 0 && (v & (mutexStackLocked | mutexSpinning)) == 0 -> goto w_take
#endif
	fi
}

/* The first loop of mutexLeaveStack, after each load of v: wait while
 * another M owns the stack, or try to take it.
 * go mutexLeaveStack: `for v&mutexStackLocked != 0 || !atomic.Casuintptr(&l.key, v, v|mutexStackLocked)` */
inline leaveDecide() {
#ifdef MUTANT_LEAVE_NO_LOCK
	/* mutant: do not take mutexStackLocked; walk and unlink from the
	 * word as loaded */
	goto l_walk
#else
	if
	:: (v & mutexStackLocked) != 0 -> goto l_yield
	:: else -> goto l_take
	fi
#endif
}

#ifdef BLAME
/* The Ms on the stack from t down (3 at most, 2 bits each). */
#define WALK(t) ((t) | (nextwaitm[t] << 2) | (nextwaitm[nextwaitm[t]] << 4))

/* unlock2Blame, after each load of v: blame nobody if nobody sleeps, the
 * stack is owned or l is claimed, or try to take the stack (b_take).
 * go unlock2Blame: `if v&mutexMMask == 0 || v&(mutexStackLocked|mutexClaimed) != 0 {`, `return false` */
inline blameDecide() {
	if
	:: mutexMFromKey(v) == 0 || (v & (mutexStackLocked | mutexClaimed)) != 0 -> v = 0; goto release
	:: else -> goto b_take
	fi
}
#endif

/* The top of unlock2Wake's second loop, after each load of v: give the
 * stack up if an M joined the claim queue since this M looked (its poke
 * will take l or set the hint), or try to take the top off (w_pop).
 * go unlock2Wake: `if v&mutexClaimed != 0 {` */
inline popDecide() {
	if
	:: (v & mutexClaimed) != 0 -> goto w_rel
	:: else -> goto w_pop
	fi
}

/* mutexLeaveStack gives the stack up. */
inline giveUpStack() {
#ifdef MUTANT_LEAVE_NO_LOCK
	skip            /* mutant: this M never took the stack */
#else
	stackOwner = 0
#endif
}

/* mutexClaimJoin has returned: mutexWaitForClaim takes the M off the
 * stack if it is there (after a sleep that timed out), then pokes l.
 * go mutexWaitForClaim: `if onStack {`, `mutexLeaveStack(l)` */
inline joinDone() {
#ifdef MUTANT_POKE_BEFORE_LEAVE
	goto c_poke
#else
	if
	:: onStack -> onStack = false; goto l_load
	:: else -> goto c_poke
	fi
#endif
}

/* mutexLeaveStack has returned. */
inline leaveDone() {
#ifdef MUTANT_POKE_BEFORE_LEAVE
	waitDone()
#else
	goto c_poke
#endif
}

/* mutexWaitForClaim has poked l. */
inline pokeDone() {
#ifdef MUTANT_POKE_BEFORE_LEAVE
	/* mutant: the poke comes before mutexLeaveStack */
	if
	:: onStack -> onStack = false; goto l_load
	:: else -> waitDone()
	fi
#else
	waitDone()
#endif
}

/* Unless the M handed l to itself, it sleeps until an M hands l over.
 * go mutexWaitForClaim: `if !handed {` */
inline waitDone() {
	if
	:: selfHanded -> selfHanded = false; acquired(); slowDone(); goto holding
	:: else -> kind = SLEEP_HAND; goto s_sleep
	fi
}

proctype M(byte me) {
	int  v, next;           /* the v and next of lock2Slow, mutexLeaveStack and unlock2Wake */
	byte old8;              /* the byte a swap returns */
	byte spins, passes;     /* lock2Slow */
	bool dl;                /* lock2Slow: deadline != 0 (its spinning is the global spinning[me]) */
	bool onStack;           /* mutexWaitForClaim's onStack */
	bool selfHanded;        /* mutexWaitForClaim's handed: the M handed l to itself */
	byte above;             /* mutexLeaveStack */
	byte p, i;              /* mutexLeaveStack's walk, and its length */
	byte wakee;             /* semawakeup's mp */
	byte ret;               /* where mutexHandOff returns to, or 0 */
	byte got;               /* what mutexHandOff returns: the head it took out, or 0 */
	byte kind;              /* what the sleep in semasleep is (SLEEP_...) */
	byte sv;                /* semasleep's v */
#ifdef BLAME
	bool blamed;            /* unlock2's blamed: unlock2Blame took the stack */
	byte walked;            /* ghost: the stack below the top unlock2Blame took, as WALK gives it */
#endif
#ifndef FOREVER
	byte acq;               /* acquisitions done */
#endif

	/* ---- lock2 ---- */
lock2:
	atomic {        /* go lock2: `prev := atomic.Xchg8(key8(&l.key), mutexLocked)`, `if prev&mutexLocked == 0 {`, `lock2Slow(l)` */
		old8 = key & lowByte;
		key = (key & ~lowByte) | mutexLocked;
		if
		:: (old8 & mutexLocked) == 0 ->
			assert(old8 == 0);      /* no hint on a free mutex (HINTOK) */
			assert(owner == 0);
			owner = me;
#ifdef MUTANT_FAST_IGNORES_C
			/* mutant: enter without looking for a claim */
			acquired();
			goto holding
#else
			goto l2_claim
#endif
		:: else -> old8 = 0; goto slow
		fi
	}
l2_claim:
	atomic {        /* go lock2: `if *keyFlags8(&l.key)&(mutexClaimed>>8) == 0 || mutexHandOff(l) == nil {`, `return` (a load of the byte that holds mutexClaimed) */
		if
		:: (key & mutexClaimed) == 0 -> acquired(); goto holding
		:: else -> ret = RET_LOCK2; goto h_ticket
		fi
	}

	/* ---- lock2Slow ---- */
slow:
	atomic {        /* go lock2Slow: `v := atomic.Loaduintptr(&l.key)`, `if v&(mutexLocked|mutexSpinning|mutexClaimed|mutexMMask) == mutexLocked && ncpu > 1 && gomaxprocs <= ncpu {` */
		v = key;
		if
		:: (v & (mutexLocked | mutexSpinning | mutexClaimed)) == mutexLocked && mutexMFromKey(v) == 0 -> goto s_prepoll
		:: true -> slowDecide()  /* also ncpu == 1 or gomaxprocs > ncpu */
		fi
	}
s_prepoll:
	atomic {        /* go lock2Slow: `mutexPoll(0)`, `v = atomic.Loaduintptr(&l.key)` (light contention) */
		v = key;
		slowDecide()
	}
s_acquire:
	atomic {        /* go lock2Slow: `next := v | mutexLocked`, `next &^= mutexSpinning`, `if atomic.Casuintptr(&l.key, v, withSleepHint(next)) {`, `break`, `v = atomic.Loaduintptr(&l.key)` */
		next = v | mutexLocked;
		if :: spinning[me] -> next = next & ~mutexSpinning :: else fi;
		if
		:: key == v ->
#ifdef MUTANT_ACQUIRE_NO_HINT
			/* mutant: take l without setting the hint, so an M woken
			 * from the stack never pays back the hint it owes */
			key = next;
#else
			key = withSleepHint(next);
#endif
			assert(owner == 0);
			owner = me;
			acquired();
			slowDone();
			goto holding
		:: else -> next = 0; v = key; slowDecide()
		fi
	}
s_honour:
	atomic {        /* go lock2Slow: `} else if atomic.Xchg8(key8(&l.key), mutexLocked|mutexSleeping)&mutexLocked == 0 {`, `if mutexHandOff(l) == nil {`, `v = atomic.Loaduintptr(&l.key)` */
		old8 = key & lowByte;
		key = (key & ~lowByte) | mutexLocked | mutexSleeping;
		if
		:: (old8 & mutexLocked) == 0 ->
			assert(owner == 0);
			owner = me;
			old8 = 0;
			ret = RET_SLOW;
			goto h_ticket
		:: else -> old8 = 0; goto s_load
		fi
	}
s_unspin:
	atomic {        /* go lock2Slow: `atomic.And8(keyFlags8(&l.key), ^uint8(mutexSpinning>>8))`, `break` (l handed to nobody: ours) */
		key = key & ~mutexSpinning;
		acquired();
		slowDone();
		goto holding
	}
s_spin:
	atomic {        /* go lock2Slow: `if atomic.Casuintptr(&l.key, v, withSleepHint(v|mutexSpinning)) {`, `spinning = true`, `spins = 0`, `v = atomic.Loaduintptr(&l.key)` */
		if
		:: key == v -> key = withSleepHint(v | mutexSpinning); spinning[me] = true; spins = 0; goto s_load
		:: else -> v = key; slowDecide()
		fi
	}
s_poll:
	atomic {        /* go lock2Slow: `mutexPoll(spins)`, `spins++`, `v = atomic.Loaduintptr(&l.key)` (the spinner) */
		spins++;
		v = key;
		slowDecide()
	}
s_load:
	atomic {        /* go lock2Slow: `v = atomic.Loaduintptr(&l.key)`, `continue` (after a CAS that succeeded, or a swap that found l held, or a hand-off) */
		v = key;
		slowDecide()
	}
s_push:
#ifdef MUTANT_LINK_LATE
	/* mutant: publish the M first and write its link afterwards; until
	 * then the link holds what the M's last sleep left there */
	atomic {        /* mutant: the push CAS before the link store */
		next = (v & flagBits) | mutexPartialM(me) | mutexSleeping;
		if :: spinning[me] -> next = next & ~mutexSpinning :: else fi;
		if
		:: key == v ->
			key = next;
			ghostPush(me);
			spinning[me] = false; spins = 0; next = 0;
			goto s_link
		:: else -> next = 0; goto s_load
		fi
	}
s_link:
	atomic {        /* mutant: the link store after the push CAS */
		nextwaitm[me] = mutexMFromKey(v);
		v = 0;
		kind = SLEEP_STACK;
		goto s_sleep
	}
#else
	atomic {        /* go lock2Slow: `pushed, claimed, claim := mutexSleepOnStack(l, v, spinning, rest)`, `spinning = false`, `v = atomic.Loaduintptr(&l.key)`
			 * The link is this M's own, and nobody reads it before the CAS
			 * publishes the M, so the plain store shares the CAS's step. */
		/* go mutexSleepOnStack: `pushed = atomic.Casuintptr(&l.key, v, mutexPushed(v, mp, giveUpSpin))` */
		/* go mutexPushed: `mp.nextwaitm.set(mutexMFromKey(v))`, `next := v&^mutexMMask | mutexPartialM(mp) | mutexSleeping`, `next &^= mutexSpinning` */
		nextwaitm[me] = mutexMFromKey(v);
		next = (v & flagBits) | mutexPartialM(me) | mutexSleeping;
#ifndef MUTANT_SPIN_LATE
		if :: spinning[me] -> next = next & ~mutexSpinning :: else fi;
#endif
		if
#ifdef MUTANT_PUSH_FREE
		/* mutant: the push CAS does not require l to be held: it
		 * ignores mutexLocked */
		:: (key & ~mutexLocked) == (v & ~mutexLocked) ->
			key = (next & ~mutexLocked) | (key & mutexLocked);
#else
		:: key == v ->
			key = next;
#endif
			ghostPush(me);
			next = 0; spins = 0;
#ifdef MUTANT_SPIN_LATE
			goto s_unspinlate
#else
			spinning[me] = false;
			v = 0;
			kind = SLEEP_STACK;
			goto s_sleep
#endif
		:: else -> next = 0; v = key; slowDecide()
		fi
	}
#endif
#ifdef MUTANT_SPIN_LATE
	/* mutant: give up mutexSpinning with a CAS of its own after the push,
	 * not in the push */
s_unspinlate:
	atomic {        /* mutant: load for the late unspin CAS */
		if
		:: !spinning[me] -> v = 0; kind = SLEEP_STACK; goto s_sleep
		:: else -> v = key
		fi
	}
	atomic {        /* mutant: the late unspin CAS */
		if
		:: key == v -> key = v & ~mutexSpinning; spinning[me] = false; v = 0; kind = SLEEP_STACK; goto s_sleep
		:: else -> goto s_unspinlate
		fi
	}
#endif

	/* ---- semasleep (lock_futexsema.go): semasleep(rest) from
	 * mutexSleepOnStack (SLEEP_STACK), semasleep(-1) from mutexLeaveStack
	 * (SLEEP_LEAVE) or from mutexWaitForClaim (SLEEP_HAND). Returning 0,
	 * they go on to s_woken, leaveDone() or c_handed; returning -1,
	 * semasleep(rest) goes on to mutexWaitForClaim. ---- */
s_sleep:
	atomic {        /* go semasleep: `v := atomic.Load(&mp.waitsema)`, `if v > 0`, `ns = deadline - nanotime()`, `if ns <= 0`, `return -1` */
		sv = waitsema[me];
		if
		:: sv > 0 -> goto s_semcas
		:: sv == 0 -> goto s_futex
#ifndef NOTIMEOUT
		/* The sleep times out: the M's patience has ended.
		 * go mutexSleepOnStack: `if semasleep(ns) < 0 {`, `claim = mutexWaitForClaim(l, false, true)` */
		:: sv == 0 && kind == SLEEP_STACK -> kind = 0; late[me] = true; onStack = true; goto j_ticket
#endif
		fi
	}
s_semcas:
	atomic {        /* go semasleep: `if atomic.Cas(&mp.waitsema, v, v-1)`, `return 0`, `continue` */
		if
		:: waitsema[me] == sv ->
			waitsema[me] = sv - 1; sv = 0;
			if
			:: kind == SLEEP_STACK ->
				assert(phase[me] == 2);         /* woken only after being taken off */
				phase[me] = 0; kind = 0; goto s_woken
			:: kind == SLEEP_LEAVE ->
				assert(phase[me] == 2);
				phase[me] = 0; kind = 0; leaveDone()
			:: kind == SLEEP_HAND -> kind = 0; goto c_handed
			fi
		:: else -> sv = 0; goto s_sleep
		fi
	}
s_futex:
	atomic {        /* go semasleep: `futexsleep(&mp.waitsema, 0, ns)` (the kernel compares and sleeps in one step) */
		if
#ifdef MUTANT_SEMA_NOCOUNT
		/* mutant: sleep without looking at the count, so a wakeup
		 * given before the sleep is lost */
		:: true -> infutex[me] = true
#else
		:: waitsema[me] == 0 -> infutex[me] = true
		:: else -> goto s_sleep
#endif
		fi
	}
	atomic {        /* model: asleep in the kernel until futexwakeup */
		!infutex[me] -> goto s_sleep
	}
s_woken:
	atomic {        /* go lock2Slow: `spinning = false`, `v = atomic.Loaduintptr(&l.key)` (after a sleep an unlock woke) */
		v = key;
		slowDecide()
	}

	/* ---- mutexWaitForClaim: the M's patience has ended ---- */
c_unspin:
	atomic {        /* go mutexWaitForClaim: `atomic.And8(keyFlags8(&l.key), ^uint8(mutexSpinning>>8))` */
		key = key & ~mutexSpinning;
		spinning[me] = false; spins = 0;
		goto j_ticket
	}
c_poke:
	atomic {        /* go mutexWaitForClaim: `if atomic.Xchg8(key8(&l.key), mutexLocked|mutexSleeping)&mutexLocked == 0 {`, `switch mutexHandOff(l) {`, `handed = true`, `throw("runtime: a mutex's claim queue was empty while an M was in it")` */
#ifdef MUTANT_WAIT_NO_POKE
		/* mutant: go on without poking l */
		pokeDone()
#else
		old8 = key & lowByte;
		key = (key & ~lowByte) | mutexLocked | mutexSleeping;
		if
		:: (old8 & mutexLocked) == 0 ->
			assert(owner == 0);
			owner = me;
			old8 = 0;
			ret = RET_POKE;
			goto h_ticket
		:: else -> old8 = 0; pokeDone()
		fi
#endif
	}
c_handed:
	atomic {        /* go mutexWaitForClaim: `semasleep(-1)`, `if mutexClaimOf(mp).handed.Load() == 0 {`, `throw("runtime: an M waiting for a mutex's claim was woken without the mutex")`, `mutexClaimOf(mp).handed.Store(0)` */
		assert(handed[me]);             /* the throw */
		handed[me] = false;
		acquired();
		slowDone();
		goto holding
	}

	/* ---- mutexClaimJoin ---- */
j_ticket:
	atomic {        /* go mutexClaimBucket.lock: `ticket := b.next.Add(1) - 1` */
		tq[tqlen] = me; tqlen++
	}
	atomic {        /* go mutexClaimBucket.lock: `for spins := 0; b.serving.Load() != ticket; spins++ {`
			 * (the load that finds the ticket served; the queue is this M's
			 * to read and write until it releases the bucket) */
		/* go mutexClaimJoin: `head, _ := b.find(l)`, `if head == nil {` */
		tq[0] == me ->
		assert(bucketOwner == 0);       /* one holder of the bucket */
		bucketOwner = me;
		if
#ifdef MUTANT_CAS_CLAIM
		:: cqlen == 0 -> goto j_claimload
#else
		:: cqlen == 0 -> goto j_first
#endif
		:: else -> goto j_append
		fi
	}
#ifdef MUTANT_CAS_CLAIM
	/* mutant: the first M to join sets mutexClaimed with a CAS, as the
	 * claim of an overdue M was made before the claim queue: it fails
	 * whenever the word changed since the M loaded it */
j_claimload:
	atomic {        /* mutant: the load for the claim CAS */
		v = key
	}
j_claimcas:
	atomic {        /* mutant: the claim CAS, retried */
		if
		:: key == v -> key = v | mutexClaimed; v = 0; goto j_append
		:: else -> v = key; goto j_claimcas
		fi
	}
#endif
j_first:
	atomic {        /* go mutexClaimJoin: `b.queues.set(mp)`, `atomic.Or8(keyFlags8(&l.key), mutexClaimed>>8)`
			 * (the append shares the Or8's step: only holders of the bucket
			 * read the queue) */
		cq[0] = me; cqlen = 1;
		ghostJoin(0);
		key = key | mutexClaimed
	}
	atomic {        /* go mutexClaimJoin: `b.unlock()`, `return ahead` */
		/* go mutexClaimBucket.unlock: `b.serving.Add(1)` */
		ticketDone();
		joinDone()
	}
j_append:
	atomic {        /* go mutexClaimJoin: `mutexClaimOf(mutexClaimOf(head).tail.ptr()).next.set(mp)`, `b.unlock()`, `return ahead`
			 * (the append shares the release's step: only holders of the
			 * bucket read the queue) */
		/* go mutexClaimBucket.unlock: `b.serving.Add(1)` */
		ghostJoin(cqlen);
		cq[cqlen] = me; cqlen++;
		ticketDone();
		joinDone()
	}

	/* ---- mutexHandOff: this M holds l and saw it claimed; ret says
	 * where it returns to ---- */
h_ticket:
	atomic {        /* go mutexClaimBucket.lock: `ticket := b.next.Add(1) - 1` */
		tq[tqlen] = me; tqlen++
	}
	atomic {        /* go mutexClaimBucket.lock: `for spins := 0; b.serving.Load() != ticket; spins++ {`
			 * (the load that finds the ticket served; the queue is this M's
			 * to read and write until it releases the bucket, so taking the
			 * head out shares this step) */
		/* go mutexHandOff: `head, before := b.find(l)`, `if head == nil {`, `if next := c.next.ptr(); next != nil {`, `b.queues = rest` */
		tq[0] == me ->
		assert(bucketOwner == 0);       /* one holder of the bucket */
		bucketOwner = me;
		assert(owner == me);
		if
		:: cqlen == 0 -> got = 0; goto h_unlock
		:: else ->
#ifdef MUTANT_QUEUE_LIFO
			/* mutant: take out the M that joined last */
			got = cq[cqlen - 1]; cq[cqlen - 1] = 0;
#else
			got = cq[0]; cq[0] = cq[1];
#if NM >= 3
			cq[1] = cq[2];
#endif
			cq[NM - 1] = 0;
#endif
			cqlen--;
			owner = got;            /* l, still locked, is got's now */
			if
			:: cqlen == 0 -> goto h_clear
			:: else -> goto h_unlock
			fi
		fi
	}
h_clear:
	atomic {        /* go mutexHandOff: `atomic.And8(keyFlags8(&l.key), ^uint8(mutexClaimed>>8))` */
		key = key & ~mutexClaimed
	}
h_unlock:
	atomic {        /* go mutexHandOff: `b.unlock()`, `return nil` */
		/* go mutexClaimBucket.unlock: `b.serving.Add(1)` */
		ticketDone();
		if
		:: got == 0 -> handOffReturn()
		:: else -> goto h_hint
		fi
	}
h_hint:
	atomic {        /* go mutexHandOff: `atomic.Or8(key8(&l.key), mutexSleeping)`, `if head != getg().m {`, `return head` */
		key = key | mutexSleeping;
		if
		:: got == me -> handOffReturn()
		:: else -> goto h_handed
		fi
	}
h_handed:
	atomic {        /* go mutexHandOff: `c.handed.Store(1)`, `semawakeup(head)` */
		assert(!handed[got]);
		handed[got] = true;
		wakee = got;
		goto wake
	}

	/* ---- mutexLeaveStack: from mutexWaitForClaim, after a sleep on the
	 * stack that timed out, once the M has joined and poked ---- */
l_load:
	atomic {        /* go mutexLeaveStack: `v := atomic.Loaduintptr(&l.key)` */
		sv = 0;
		v = key;
		leaveDecide()
	}
l_yield:
	atomic {        /* go mutexLeaveStack: `osyield()`, `v = atomic.Loaduintptr(&l.key)` (the owner holds the stack) */
		v = key;
		leaveDecide()
	}
l_take:
	atomic {        /* go mutexLeaveStack: `for v&mutexStackLocked != 0 || !atomic.Casuintptr(&l.key, v, v|mutexStackLocked)`, `v |= mutexStackLocked`, `v = atomic.Loaduintptr(&l.key)` */
		if
		:: key == v -> key = v | mutexStackLocked; stackOwner = me; v = v | mutexStackLocked; goto l_walk
		:: else -> v = key; leaveDecide()
		fi
	}
l_walk:
	atomic {        /* go mutexLeaveStack: `for p := mutexMFromKey(v); p != nil; p = p.nextwaitm.ptr()`, `if p == mp`, `found = true`, `above = p`, `if !found`, `above.nextwaitm = mp.nextwaitm`
			 * The links below the top in v change only by the hand of the
			 * stack's owner, this M, so the walk and the store share a step. */
		above = 0; p = mutexMFromKey(v); i = 0;
		do
		:: p == 0 || p == me -> break
		:: else -> assert(i < NM); i++; above = p; p = nextwaitm[p]
		od;
		if
		:: p == 0 -> above = 0; i = 0; goto l_nfcas
		:: else -> p = 0; i = 0
		fi;
		if
		:: above != 0 ->
			nextwaitm[above] = nextwaitm[me];
			ghostOff(me, 0)
		:: else
		fi
	}
l_cas:
	atomic {        /* go mutexLeaveStack: `next := v &^ mutexStackLocked`, `if above == nil`, `next = next&^mutexMMask | mutexPartialM(mp.nextwaitm.ptr())`, `if atomic.Casuintptr(&l.key, v, next)`, `mp.nextwaitm = 0`, `return`, `v = atomic.Loaduintptr(&l.key)`, `if above != nil` */
		next = v & ~mutexStackLocked;
		if :: above == 0 -> next = (next & flagBits) | mutexPartialM(nextwaitm[me]) :: else fi;
		if
		:: key == v ->
			key = next;
			giveUpStack();
			if :: above == 0 -> ghostOff(me, 0) :: else fi;
			nextwaitm[me] = 0;
			next = 0; above = 0; v = 0;
			leaveDone()
		:: else -> next = 0; v = key
		fi;
		if
#ifdef MUTANT_LEAVE_TOP_RETRY
		/* mutant: after a failed CAS, only redo the release, even if
		 * this M was the top and is still on the stack */
		:: true -> goto l_rel
#else
		:: above != 0 -> goto l_rel
		:: else -> goto l_walk
#endif
		fi
	}
l_rel:
	atomic {        /* go mutexLeaveStack: `for !atomic.Casuintptr(&l.key, v, v&^mutexStackLocked) {`, `mp.nextwaitm = 0`, `return`, `v = atomic.Loaduintptr(&l.key)` */
		if
		:: key == v ->
			key = v & ~mutexStackLocked;
			giveUpStack();
#ifdef MUTANT_LEAVE_TOP_RETRY
			if :: above == 0 -> ghostOff(me, 0) :: else fi;
#endif
			nextwaitm[me] = 0;
			above = 0; v = 0;
			leaveDone()
		:: else -> v = key; goto l_rel
		fi
	}
l_nfcas:
	atomic {        /* go mutexLeaveStack: `for !atomic.Casuintptr(&l.key, v, v&^mutexStackLocked)`, `v = atomic.Loaduintptr(&l.key)`, `semasleep(-1)` (not found: a waker took this M off) */
		if
		:: key == v ->
			key = v & ~mutexStackLocked;
			giveUpStack();
			v = 0;
#ifdef MUTANT_LEAVE_NO_WAIT
			/* mutant: return without taking the wakeup */
			leaveDone()
#else
			kind = SLEEP_LEAVE;
			goto s_sleep
#endif
		:: else -> v = key; goto l_nfcas
		fi
	}

	/* ---- unlock2 ---- */
holding:
#ifdef BLAME
	/* unlock2 samples the unlock (mutexSampleContention, which reads no
	 * shared state of the protocol) or not: the model takes either. */
	atomic {        /* go unlock2Blame: `v := atomic.Loaduintptr(&l.key)` */
		if
		:: goto release /* not sampled */
		:: v = key; blameDecide()
		fi
	}
b_take:
	atomic {        /* go unlock2Blame: `if atomic.Casuintptr(&l.key, v, v|mutexStackLocked) {`, `v = atomic.Loaduintptr(&l.key)` */
		if
		:: key == v ->
#ifdef MUTANT_BLAME_NO_LOCK
			skip;   /* mutant: walk the stack without taking mutexStackLocked */
#else
			key = v | mutexStackLocked;
			stackOwner = me;
#endif
			walked = WALK(mutexMFromKey(v));
			goto b_rel
		:: else -> v = key; blameDecide()
		fi
	}
	/* The walk reads links that only the stack's owner, this M, changes,
	 * and writes the startTicks of the top and the bottom, which only the
	 * profile's timing reads: it shares the release's step, which asserts
	 * that the Ms from the top it took down are still those it found
	 * then. The release CAS fails only while other Ms change other bits
	 * of the word, and its failures write nothing, so the one that
	 * succeeds is the step. */
b_rel:
	atomic {        /* go unlock2Blame: `for next := top.nextwaitm.ptr(); next != nil; next = next.nextwaitm.ptr() {`, `for !atomic.Casuintptr(&l.key, v, v&^mutexStackLocked) {`, `return true` */
		assert(owner == me);
		assert(phase[mutexMFromKey(v)] == 1 && WALK(mutexMFromKey(v)) == walked);   /* nobody changed the stack below the top */
		walked = 0;
#ifdef MUTANT_BLAME_NO_LOCK
		skip;   /* mutant: there is no stack to give up */
#else
		key = key & ~mutexStackLocked;
		stackOwner = 0;
#endif
		v = 0;
#ifndef MUTANT_BLAME_NO_WAKE
		blamed = true
#endif
	}
release:
#endif
#ifdef MUTANT_HINT_EARLY
	/* mutant: decide whether to wake from a load before the swap, not
	 * from what the swap returns */
	atomic {        /* mutant: the early load */
		old8 = key & lowByte
	}
#endif
	atomic {        /* go unlock2: `old8 := atomic.Xchg8(key8(&l.key), 0)`, `if old8&mutexLocked == 0`, `throw("unlock of unlocked lock")`, `if old8&mutexSleeping != 0`, `unlock2Wake(l)` */
#ifndef MUTANT_HINT_EARLY
		old8 = key & lowByte;
#endif
#ifdef MUTANT_WIDE_SWAP
		/* mutant: the release swaps 16 bits, not 8 */
		key = key & ~65535;
#else
		key = key & ~lowByte;
#endif
		assert((old8 & mutexLocked) != 0);      /* throw("unlock of unlocked lock") */
		assert(owner == me);
		owner = 0;
		holders--;
#ifdef BLAME
		/* go unlock2: `if old8&mutexSleeping != 0 || blamed {` */
		if
		:: (old8 & mutexSleeping) != 0 || blamed -> old8 = 0; blamed = false; goto w_load
		:: else -> unlocked()
		fi
#else
		if
		:: (old8 & mutexSleeping) != 0 -> old8 = 0; goto w_load
		:: else -> unlocked()
		fi
#endif
	}

	/* ---- unlock2Wake ---- */
w_load:
	atomic {        /* go unlock2Wake: `v := atomic.Loaduintptr(&l.key)`, `v = atomic.Loaduintptr(&l.key)`, `continue` */
		v = key;
		wakeDecide()
	}
w_honour:
	atomic {        /* go unlock2Wake: `if atomic.Xchg8(key8(&l.key), mutexLocked|mutexSleeping)&mutexLocked != 0 {`, `return`, `if mutexHandOff(l) != nil {` */
		v = 0;
		old8 = key & lowByte;
		key = (key & ~lowByte) | mutexLocked | mutexSleeping;
		if
		:: (old8 & mutexLocked) == 0 ->
			assert(owner == 0);
			owner = me;
			old8 = 0;
			ret = RET_WAKE;
			goto h_ticket
		:: else -> old8 = 0; unlocked()
		fi
	}
w_again:
	atomic {        /* go unlock2Wake: `if atomic.Xchg8(key8(&l.key), 0)&mutexSleeping == 0 {`, `return // an M whose swap cleared it owes it` */
		old8 = key & lowByte;
		key = key & ~lowByte;
		assert(owner == me);
		owner = 0;
		if
		:: (old8 & mutexSleeping) != 0 -> old8 = 0; goto w_load
		:: else -> old8 = 0; unlocked()
		fi
	}
w_take:
	atomic {        /* go unlock2Wake: `if atomic.Casuintptr(&l.key, v, v|mutexStackLocked) {`, `v |= mutexStackLocked`, `v = atomic.Loaduintptr(&l.key)` */
		if
		:: key == v ->
			key = v | mutexStackLocked;
			stackOwner = me;
			v = v | mutexStackLocked;
			popDecide()
		:: else -> v = key; wakeDecide()
		fi
	}
w_pop:
	atomic {        /* go unlock2Wake: `top := mutexMFromKey(v)`, `below := top.nextwaitm.ptr()`, `if atomic.Casuintptr(&l.key, v, v&^(mutexMMask|mutexStackLocked|mutexSleeping)|mutexPartialM(below)) {`, `v = atomic.Loaduintptr(&l.key)`
			 * (top's link changes only by the hand of the stack's owner,
			 * this M, so its read shares the CAS's step) */
		if
		:: key == v ->
			wakee = mutexMFromKey(v);
			key = (v & flagBits & ~(mutexStackLocked | mutexSleeping)) | mutexPartialM(nextwaitm[wakee]);
			stackOwner = 0;
			ghostPopTop(wakee);
			v = 0;
			goto wake
		:: else -> v = key; popDecide()
		fi
	}
w_rel:
	atomic {        /* go unlock2Wake: `for !atomic.Casuintptr(&l.key, v, v&^mutexStackLocked) {`, `v = atomic.Loaduintptr(&l.key)` (an M joined the claim queue since this M looked: honour the claim) */
		if
		:: key == v ->
			key = v & ~mutexStackLocked; stackOwner = 0; v = 0;
#ifdef MUTANT_WAKE_CLAIMED_RETURN
			/* mutant: return, counting on the joiner's poke: the M
			 * whose release the poke's hint makes look again may
			 * have found this M owning the stack, and left the
			 * waking to it */
			unlocked()
#else
			goto w_load     /* load again: honour the claim, or wake from the stack if the queue emptied since */
#endif
		:: else -> v = key; goto w_rel
		fi
	}

	/* ---- semawakeup(wakee) (lock_futexsema.go), from mutexHandOff
	 * (ret != 0: it returns to its caller) or from unlock2Wake (unlock2
	 * returns) ---- */
wake:
	atomic {        /* go semawakeup: `if atomic.Xadd(&mp.waitsema, 1) == 1` */
		assert(phase[wakee] == 2 || handed[wakee]);    /* woken only after being taken off the stack or out of the queue */
		waitsema[wakee]++;
#ifdef MUTANT_SEMA_BINARY
		/* mutant: the semaphore holds one wakeup, as Windows' auto-reset
		 * event did: a second wakeup before the M takes the first is lost */
		if
		:: waitsema[wakee] > 1 -> waitsema[wakee] = 1
		:: else -> skip
		fi
#endif
		/* A waker's wakeup and then a hand-off's can both reach an M
		 * before it takes either: an M that joined the claim queue
		 * while on the stack, taken off it by unlock2Wake and then
		 * handed l. mutexLeaveStack takes the first, the wait for the
		 * hand-off the second. */
		assert(waitsema[wakee] <= 2);
		if
		:: waitsema[wakee] == 1 -> goto futexwake
		:: else -> wakee = 0; woken()
		fi
	}
futexwake:
	atomic {        /* go semawakeup: `futexwakeup(&mp.waitsema, 1)` */
		infutex[wakee] = false;
		wakee = 0;
		woken()
	}

#ifndef FOREVER
finished:
	skip
#endif
}

init {
	atomic {        /* model: start the Ms */
		run M(1); run M(2);
#if NM >= 3
		run M(3);
#endif
	}
}

#ifndef FOREVER
/* Progress, checked with pan -a -f (weak fairness): every M completes all
 * of its acquisitions. */
ltl terminates { <> (done == NM) }
#endif

#ifdef FOREVER
/* An M whose patience has ended eventually enters, checked with pan -a -f
 * (weak fairness), with Ms that lock forever. */
#define ENTERS(m) (late[m] -> <> !late[m])
#if NM >= 3
ltl patience { [] (ENTERS(1) && ENTERS(2) && ENTERS(3)) }
#else
ltl patience { [] (ENTERS(1) && ENTERS(2)) }
#endif
#endif
