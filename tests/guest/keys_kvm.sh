# kvm's keys, through /dev/kvm in the guest (kvm_amd on the SVM that
# QEMU's TCG offers with -cpu max): a vCPU created without the in-kernel
# irqchip takes kvm_has_noapic_vcpu, and must run a one-HLT guest to its
# HLT exit; a vCPU with the in-kernel irqchip has a local APIC, software
# disabled at reset, which takes the deferred key apic_sw_disabled
# (dropped from delayed work, HZ after the vCPU goes).  And the series'
# conversion kvm_pi_inject_timer, which follows the writable parameter
# pi_inject_timer.
. "${CHECKS_LIB:-/lib/checks.sh}"
. /lib/keys.sh
[ "$(uname -m)" = x86_64 ] || skip_all "x86's kvm keys: this guest is $(uname -m)"
[ -e /dev/kvm ] || skip_all "no /dev/kvm in the guest (kvm_amd needs SVM: $(grep -c -w svm /proc/cpuinfo) CPUs with svm)"
plan 9

flip_check kvm_noapic_vcpu kvm_has_noapic_vcpu+0x0 \
	'start_trigger $KEYS_TMP/noapic.out kvm-vcpu noapic' \
	stop_trigger
grep -qx exit=hlt $KEYS_TMP/noapic.out
result $? kvm_vcpu_ran "KVM_RUN of a one-HLT guest: $(grep exit= $KEYS_TMP/noapic.out)"

flip_check kvm_apic_sw_disabled apic_sw_disabled+0x0 \
	'start_trigger $KEYS_TMP/irqchip.out kvm-vcpu irqchip' \
	stop_trigger

# The series' conversion: kvm_pi_inject_timer, true while the parameter
# is 1, tested on every start and expiry of a guest's LAPIC timer.  What
# it enables, timer interrupts posted to a running vCPU, needs APICv or
# AVIC, which QEMU's TCG does not offer; the check is of the parameter
# (on every kernel) and of the key's sites.
P=/sys/module/kvm/parameters/pi_inject_timer
flip_check kvm_pi_inject_timer kvm_pi_inject_timer+0x0 \
	"echo Y > $P && cat $P > $KEYS_TMP/pi_on.out" \
	"echo N > $P && cat $P > $KEYS_TMP/pi_off.out"
[ "$(cat $KEYS_TMP/pi_on.out)" = 1 ]
result $? pi_inject_timer_set "$P after Y: $(cat $KEYS_TMP/pi_on.out)"
[ "$(cat $KEYS_TMP/pi_off.out)" = 0 ]
result $? pi_inject_timer_cleared "$P after N: $(cat $KEYS_TMP/pi_off.out)"
finish
