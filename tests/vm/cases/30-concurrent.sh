#!/bin/sh
# Four processes in four sessions add the same OpenPGP blob at once:
# four upcalls, one each (nothing is shared between requests: no request
# waits for another's answer, none can be answered by another's), and
# each gets the key in its own session keyring.
. /pgpk/lib.sh
K=$PGPK_DATA/k
pgpk_need_module
pgpk_need_helper
pgpk_need_data k/deb1.pgp k/deb1.fpr
pgpk_load
# Four helpers at once on one emulated CPU: the debug kernel (KASAN) runs
# each several times slower; the answer's limit scales as every limit
# here does.
param=/sys/module/pgpk/parameters/upcall_timeout
saved=$(cat $param)
trap 'echo "$saved" >'"$param" EXIT
echo $((saved * PGPK_SLOWDOWN)) >$param

sleep 0.5
up=$(count_upcalls)
i=1
while [ "$i" -le 4 ]; do
	keyctl session - sh -c "keyctl padd asymmetric '' @s \
		<'$K/deb1.pgp' >/tmp/conc.$i 2>&1 &&
		keyctl search @s asymmetric id:$(cat "$K/deb1.fpr") \
		>>/tmp/conc.$i 2>&1; echo \$? >>/tmp/conc.$i" >/dev/null &
	i=$((i + 1))
done
wait
i=1
while [ "$i" -le 4 ]; do
	echo "process $i: $(tr '\n' ' ' </tmp/conc.$i)"
	assert_eq 0 "$(tail -n 1 /tmp/conc.$i)" "process $i result"
	i=$((i + 1))
done
pgpk_wait_upcalls $((up + 4)) "upcalls for 4 concurrent adds"
exit 0
