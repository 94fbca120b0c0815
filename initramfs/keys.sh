# Sourced after /lib/checks.sh by the checks of tests/guest/keys_*.sh: a
# key's state and its sites', and a check that a trigger flips them.
#
# A key's state is its lines in the format of the series' debugfs view
# (/sys/kernel/debug/static_keys), sizes left out:
#
#   key <symbol+offset> default=<true|false> count=<n> sites=<n>
#     site <symbol+offset> <likely|unlikely> <nop2|nop5|jmp8|jmp32|nop|b|...>
#
# read by /bin/kcore-sites from /proc/kcore on every variant; where the
# view exists (series) it must say the same, site by site.
#
#   has_sites                   whether the kernel's jump table has sites
#   key_state KEY FILE          KEY's lines into FILE (1: no such key, or
#                               the view disagrees with kcore)
#   key_count FILE              the count of the key in FILE
#   sites_follow FILE           0 if FILE holds a key and every site of
#                               every key in it is a NOP or a JMP as its
#                               branch form and its key's count require;
#                               prints those that are not
#   flip_check NAME KEY ON OFF  two subtests, NAME_on and NAME_off: after
#                               the shell command ON, KEY's count changes
#                               and every site follows it; after OFF,
#                               KEY's lines are what they were before ON.
#                               Each waits up to 5 s, since some keys
#                               change from deferred work.
#   start_trigger OUT ARGS...   key-trigger ARGS in the background, its
#                               output in OUT; returns once it holds its
#                               key ("ready"), its pid in $trigger
#   stop_trigger                SIGTERM to it, and wait for its output

VIEW=/sys/kernel/debug/static_keys
KEYS_TMP=/tmp/keys
mkdir -p $KEYS_TMP

# The table's bounds exist without CONFIG_JUMP_LABEL too: it must hold
# sites.  The host's count of the vmlinux's sites (/lib/sites, from
# build.sh) decides too, so that a kernel with sites never skips its site
# checks because reading them here went wrong: they run and fail.  Asked
# once per check.
has_sites() {
	if [ -z "${HAS_SITES:-}" ]; then
		HAS_SITES=no
		grep -q '\(^\| \)sites=[1-9]' /lib/sites 2> /dev/null &&
			HAS_SITES=yes
		kcore-sites --summary 2> /dev/null | grep -q '^sites=[1-9]' &&
			HAS_SITES=yes
	fi
	[ "$HAS_SITES" = yes ]
}

# The view without symbol sizes: "sym+0x1a/0x40" becomes "sym+0x1a".
view_unsized() {
	sed 's,\(+0x[0-9a-f]*\)/0x[0-9a-f]*,\1,g' $VIEW
}

view_key() {
	view_unsized | awk -v k="$1" '$1 == "key" { p = ($2 == k) } p'
}

key_state() {
	kcore-sites "$1" > "$2" 2> "$2.err" || { diag "$(cat "$2.err")"; return 1; }
	[ -r $VIEW ] || return 0
	view_key "$1" > "$2.view"
	if ! cmp -s "$2" "$2.view"; then
		diag "$1: the view and /proc/kcore disagree (- view, + kcore):"
		diff "$2.view" "$2" | sed 's/^/#   /'
		return 1
	fi
}

key_count() {
	sed -n 's/^key .* count=\(-*[0-9]*\) .*/\1/p' "$1"
}

sites_follow() {
	awk '$1 == "key" { key = $2; split($4, c, "="); value = c[2] > 0; keys++; next }
	     $1 == "site" && $4 != "freed" {
		want = (($3 == "likely") == value) ? "nop" : "jmp"
		# x86: nop2, nop5, jmp8, jmp32; arm64: nop, b
		have = $4 ~ /^nop/ ? "nop" : $4 ~ /^(jmp|b$)/ ? "jmp" : $4
		if (have != want) { print key ":" $0; bad = 1 }
	     }
	     # no key at all: nothing was read, which shows nothing
	     END { if (!keys) { print "no key in the state read"; bad = 1 }
		   exit bad }' "$1"
}

# "count=N sites: nop2 x3, jmp8 x1": one line about a state, for diag.
state_summary() {
	awk '$1 == "key" { c = $4 } $1 == "site" { n[$4]++ }
	     END { s = ""; for (i in n) s = s " " i " x" n[i]; print c " sites:" s }' "$1"
}

# consistent - FILE: every site follows the key (sites_follow, quietly).
consistent() {
	sites_follow "$2" > /dev/null
}

count_differs() {
	[ "$(key_count "$2")" != "$1" ] && consistent - "$2"
}

same_lines() {
	cmp -s "$1" "$2"
}

# settle KEY FILE TEST ARG: read KEY's state into FILE until "TEST ARG
# FILE" holds and the view agrees with kcore, for up to 5 s; then once
# more, for the diagnostics.
settle() {
	settle_key=$1 settle_file=$2
	shift 2
	settle_try=0
	while [ $settle_try -lt 50 ]; do
		key_state "$settle_key" "$settle_file" > /dev/null 2>&1 &&
			"$@" "$settle_file" && return 0
		sleep 0.1
		settle_try=$((settle_try + 1))
	done
	key_state "$settle_key" "$settle_file" && "$@" "$settle_file"
}

flip_check() {
	fc_name=$1 fc_key=$2 fc_on=$3 fc_off=$4
	fc_dir=$KEYS_TMP/$fc_name
	mkdir -p "$fc_dir"
	# Without a state to look at, the trigger still runs, for the
	# caller's check of behaviour.  A key may still be settling from an
	# earlier check's deferred work: wait until its sites agree with it.
	fc_skip='' fc_fail=''
	if ! has_sites; then
		fc_skip="no sites (CONFIG_JUMP_LABEL=n)"
	elif ! grep -q " ${fc_key%%+*}\$" /proc/kallsyms; then
		# A key that only the series' conversions add.
		fc_skip="no ${fc_key%%+*} in this kernel"
	elif ! settle "$fc_key" "$fc_dir/before" consistent -; then
		fc_fail="cannot read a consistent state of $fc_key"
	fi
	if [ -n "$fc_skip$fc_fail" ]; then
		eval "$fc_on"
		eval "$fc_off"
		for fc_sub in on off; do
			if [ -n "$fc_skip" ]; then
				skip "${fc_name}_$fc_sub" "$fc_skip"
			else
				result 1 "${fc_name}_$fc_sub" "$fc_fail"
			fi
		done
		return
	fi
	fc_before=$(key_count "$fc_dir/before")

	eval "$fc_on"
	if settle "$fc_key" "$fc_dir/on" count_differs "$fc_before"; then
		diag "$fc_key: $(state_summary "$fc_dir/before") -> $(state_summary "$fc_dir/on")"
		result 0 "${fc_name}_on"
	elif [ "$(key_count "$fc_dir/on")" = "$fc_before" ]; then
		result 1 "${fc_name}_on" "$fc_key: count still $fc_before after: $fc_on"
	else
		result 1 "${fc_name}_on" "$fc_key: sites not as the count says: $(sites_follow "$fc_dir/on")"
	fi

	eval "$fc_off"
	if settle "$fc_key" "$fc_dir/after" same_lines "$fc_dir/before"; then
		result 0 "${fc_name}_off"
	else
		diag "$fc_key before, then after: $fc_off"
		sed 's/^/#   /' "$fc_dir/before" "$fc_dir/after"
		result 1 "${fc_name}_off" "$fc_key not back to its state before"
	fi
}

# flip_setting NAME KEY FILE ON OFF FIELD PROGRAM...: flip_check of KEY
# by writing ON to FILE, then OFF, each write followed by PROGRAM; sets
# $on and $off to the value of PROGRAM's "FIELD=" line after each.
flip_setting() {
	fs_name=$1 fs_key=$2 fs_file=$3 fs_on=$4 fs_off=$5 fs_field=$6
	shift 6
	flip_check "$fs_name" "$fs_key" \
		"echo $fs_on > $fs_file && $* > $KEYS_TMP/${fs_name}_on.out" \
		"echo $fs_off > $fs_file && $* > $KEYS_TMP/${fs_name}_off.out"
	# shellcheck disable=SC2034 # on and off: the caller's
	on=$(sed -n "s/^$fs_field=//p" "$KEYS_TMP/${fs_name}_on.out")
	# shellcheck disable=SC2034
	off=$(sed -n "s/^$fs_field=//p" "$KEYS_TMP/${fs_name}_off.out")
}

start_trigger() {
	trigger_out=$1
	shift
	: > "$trigger_out"
	key-trigger "$@" > "$trigger_out" &
	trigger=$!
	trigger_try=0
	while ! grep -qx ready "$trigger_out" && [ $trigger_try -lt 100 ]; do
		kill -0 $trigger 2> /dev/null || return 1
		sleep 0.1
		trigger_try=$((trigger_try + 1))
	done
	grep -qx ready "$trigger_out"
}

stop_trigger() {
	kill $trigger
	wait $trigger
}

# cgroup2_controller NAME: cgroup v2 mounted at $CGROUP2, with NAME enabled
# for the root's children; 1 if it cannot be.
CGROUP2=/sys/fs/cgroup
cgroup2_controller() {
	if ! grep -q " $CGROUP2 cgroup2 " /proc/mounts; then
		mkdir -p $CGROUP2 && mount -t cgroup2 none $CGROUP2 || return 1
	fi
	grep -qw "$1" $CGROUP2/cgroup.controllers &&
		echo "+$1" > $CGROUP2/cgroup.subtree_control
}

# sync_probes_on NAME: kprobe events that count the CPU synchronisation
# rounds of a flip, from the kernel argument harness.sync=ROUND,CPU (the
# architecture's SYNC_PROBES, configs/arch/): NAME_round on ROUND, where
# ROUND may be FUNC@REG, the calls of FUNC whose argument in REG is CPU's
# address (for a round function the compiler inlines into its callers),
# and NAME_cpu on CPU, a call on each CPU of a round.  Plain INT3 probes:
# an optimized kprobe is written with text_poke_bp() some jiffies later,
# which would count as rounds of a flip (optimization is off until
# sync_probes_off NAME, which puts it back).  1 if they cannot be set.
# sync_counts NAME: "ROUNDS CPU_SYNCS" in the trace since it was cleared:
# events recorded, not kprobe_profile's hits, which count filtered calls.
TRACING=/sys/kernel/tracing
sync_probes_on() {
	sp_probes=$(sed -n 's/.*harness\.sync=\([^ ]*\).*/\1/p' /proc/cmdline)
	sp_round=${sp_probes%%,*} sp_cpu=${sp_probes#*,}
	[ -n "$sp_probes" ] || return 1
	SP_OPTIMIZATION=$(cat /proc/sys/debug/kprobes-optimization 2>/dev/null)
	[ -z "$SP_OPTIMIZATION" ] || echo 0 > /proc/sys/debug/kprobes-optimization
	sp_probe="p:$1_round ${sp_round%@*}"
	[ "$sp_round" = "${sp_round#*@}" ] || sp_probe="$sp_probe func=${sp_round#*@}:x64"
	echo "$sp_probe" >> $TRACING/kprobe_events &&
		echo "p:$1_cpu $sp_cpu" >> $TRACING/kprobe_events || return 1
	if [ "$sp_round" != "${sp_round#*@}" ]; then
		sp_addr=$(awk -v f="$sp_cpu" '$3 == f { print "0x" $1; exit }' /proc/kallsyms)
		echo "func == ${sp_addr:-none}" > $TRACING/events/kprobes/$1_round/filter || return 1
	fi
	echo 1 > $TRACING/events/kprobes/$1_round/enable &&
		echo 1 > $TRACING/events/kprobes/$1_cpu/enable
}

sync_counts() {
	echo "$(grep -c " $1_round: " $TRACING/trace) $(grep -c " $1_cpu: " $TRACING/trace)"
}

# trace_overruns: the events the trace's ring buffer has dropped (each
# CPU's "overrun" since the buffer was last cleared or resized, summed):
# a count read from the trace is only whole while this stays the same.
trace_overruns() {
	cat $TRACING/per_cpu/cpu*/stats 2>/dev/null |
		awk '/^overrun:/ { n += $2 } END { print n + 0 }'
}

# mm_probes_on NAME: kprobe events that count text_poke()'s switches to
# its temporary mm and the flushes of that mm's TLB entries, from the
# kernel argument harness.mm=SWITCH@REG,FLUSH@REG,MM (the architecture's
# MM_PROBES): the calls of SWITCH and FLUSH whose argument in REG is the
# value of the pointer MM.  1 if there are none or they cannot be set.
# mm_counts NAME: "SWITCHES FLUSHES" in the trace since it was cleared.
mm_probes_on() {
	mp=$(sed -n 's/.*harness\.mm=\([^ ]*\).*/\1/p' /proc/cmdline)
	[ -n "$mp" ] || return 1
	mp_switch=${mp%%,*} mp_rest=${mp#*,}
	mp_flush=${mp_rest%%,*} mp_mm=${mp_rest#*,}
	echo "p:$1_mm ${mp_switch%@*} arg=${mp_switch#*@}:x64 mm=@$mp_mm:x64" >> $TRACING/kprobe_events &&
		echo "p:$1_tlb ${mp_flush%@*} arg=${mp_flush#*@}:x64 mm=@$mp_mm:x64" >> $TRACING/kprobe_events &&
		echo 1 > $TRACING/events/kprobes/$1_mm/enable &&
		echo 1 > $TRACING/events/kprobes/$1_tlb/enable
}

mm_counts() {
	for mc in mm tlb; do
		awk -v e=" $1_$mc: " 'index($0, e) {
			a = $0; sub(/.* arg=/, "", a); sub(/ .*/, "", a)
			m = $0; sub(/.* mm=/, "", m); sub(/ .*/, "", m)
			n += (a == m) } END { printf "%d ", n }' $TRACING/trace
	done
}

mm_probes_off() {
	echo 0 > $TRACING/events/kprobes/$1_mm/enable
	echo 0 > $TRACING/events/kprobes/$1_tlb/enable
	echo "-:$1_mm" >> $TRACING/kprobe_events
	echo "-:$1_tlb" >> $TRACING/kprobe_events
}

sync_probes_off() {
	echo 0 > $TRACING/events/kprobes/$1_round/enable
	echo 0 > $TRACING/events/kprobes/$1_cpu/enable
	echo "-:$1_round" >> $TRACING/kprobe_events
	echo "-:$1_cpu" >> $TRACING/kprobe_events
	[ -z "${SP_OPTIMIZATION:-}" ] ||
		echo "$SP_OPTIMIZATION" > /proc/sys/debug/kprobes-optimization
}
